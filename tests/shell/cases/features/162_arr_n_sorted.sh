arr=(3 1 2); IFS=$'\n' sorted=($(sort <<<"${arr[*]}")); unset IFS; echo "${sorted[@]}"
