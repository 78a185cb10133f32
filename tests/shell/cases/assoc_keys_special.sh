declare -A m
m["key with space"]=1
m[a.b]=2
m[x-y]=3
for k in "${!m[@]}"; do echo "[$k]=${m[$k]}"; done | sort
echo "${m["key with space"]}"
