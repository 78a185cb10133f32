IFS=,; arr=(a b); x="${arr[*]}"; echo "$x"; echo "${arr[@]}"
