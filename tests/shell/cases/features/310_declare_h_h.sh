declare -A h; h[x]=1; h[y]=2; echo ${h[x]}${h[y]} ${#h[*]}
