arr=(); echo "${arr[@]:-x}" "${#arr[@]}"
