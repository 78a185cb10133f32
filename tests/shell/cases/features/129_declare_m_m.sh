declare -A m; m[a]=1; unset m[a]; echo ${#m[@]}
