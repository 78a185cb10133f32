echo ${#x[@]}
