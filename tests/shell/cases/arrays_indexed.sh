fruits=(apple banana cherry)
echo "${fruits[0]} ${fruits[2]}"
echo "count: ${#fruits[@]}"
fruits+=(date)
fruits[10]=fig
echo "${fruits[@]}"
echo "indices: ${!fruits[@]}"
echo "slice: ${fruits[@]:1:2}"
echo "last: ${fruits[-1]}"
unset 'fruits[1]'
echo "${fruits[@]} (${#fruits[@]})"
for f in "${fruits[@]}"; do echo "- $f"; done
