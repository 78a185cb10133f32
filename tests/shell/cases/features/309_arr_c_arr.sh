arr[2]=c; arr[0]=a; echo "${arr[@]}" ${#arr[@]}
