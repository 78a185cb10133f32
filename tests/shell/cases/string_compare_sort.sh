names=(delta alpha charlie bravo)
sorted=$(printf '%s\n' "${names[@]}" | sort)
echo "$sorted"
IFS=$'\n' read -d '' -ra arr <<< "$sorted"
echo "${arr[0]} ${arr[3]}"
