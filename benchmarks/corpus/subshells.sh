# command substitution and subshells
total=0
for i in $(seq 1 400); do
  v=$(echo "$i" | tr 0-9 a-j)
  total=$((total + ${#v}))
  ( cd /tmp && x=$i )
done
echo $total
