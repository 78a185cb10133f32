for ((i=0; i<5; i++)); do
  printf '%d ' $i
done
echo
for ((i=10, j=0; i>j; i-=3, j++)); do echo "$i $j"; done
