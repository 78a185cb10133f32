i=0; arr=(); while (( i < 3 )); do arr[i]=$((i*i)); ((i++)); done; echo "${arr[@]}"
