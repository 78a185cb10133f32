declare -A m=([b]=2 [a]=1); declare -p m
