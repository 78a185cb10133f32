arr=(a b); echo "${!arr[*]}" "${!arr[@]}"
