IFS=, read -a arr <<< ",a,,b,"; echo "${#arr[@]}"; printf '[%s]' "${arr[@]}"; echo
