echo "${arr[@]:-default}"
