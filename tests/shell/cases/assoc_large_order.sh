declare -A m
for i in {1..3000}; do m[k$i]=$i; done
echo "${!m[@]}" | md5sum
m[extra]=1
echo "${m[@]}" | cksum
