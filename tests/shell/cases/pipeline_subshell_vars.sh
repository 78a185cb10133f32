count=0
printf '1\n2\n3\n' | while read n; do count=$((count+n)); done
echo "after pipe: $count"
while read n; do count=$((count+n)); done < <(printf '1\n2\n3\n')
echo "after procsub: $count"
shopt -s lastpipe
