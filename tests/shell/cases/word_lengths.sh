sentence="Bash scripting can be surprisingly powerful"
longest="" 
for w in $sentence; do
  (( ${#w} > ${#longest} )) && longest=$w
  printf '%s:%d ' "$w" ${#w}
done
echo
echo "longest=$longest"
