read -a arr <<< ""; echo ${#arr[@]}
