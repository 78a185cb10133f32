arr=(5 3 8 1 9 2)
n=${#arr[@]}
for ((i=0; i<n; i++)); do
  for ((j=0; j<n-i-1; j++)); do
    if (( arr[j] > arr[j+1] )); then
      tmp=${arr[j]}; arr[j]=${arr[j+1]}; arr[j+1]=$tmp
    fi
  done
done
echo "${arr[@]}"
