IFS=', ' read -ra arr <<< "a, b,c ,d"; printf '[%s]' "${arr[@]}"; echo
