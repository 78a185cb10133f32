printf '1 2 3\n4 5 6\n7 8 9\n' > m
declare -a sums=(0 0 0)
while read -a row; do
  for i in 0 1 2; do (( sums[i] += row[i] )); done
done < m
echo "${sums[@]}"
