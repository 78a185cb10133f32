declare -A m=([x]=1); m+=([y]=2); echo ${#m[@]}
