declare -a out
printf -v 'out[0]' '%s' first
printf -v 'out[1]' '%05.1f' 3.14159
echo "${out[@]}"
