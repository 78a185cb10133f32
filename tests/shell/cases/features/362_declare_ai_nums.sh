declare -ai nums=(1 2); nums+=(3*2); echo ${nums[@]}
