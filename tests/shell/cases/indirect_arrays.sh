arr=(x y z)
name=arr
ref="$name[1]"; echo "${!ref}"
keys=("${!arr[@]}"); echo "${keys[*]}"
declare -n nref=arr
echo "${nref[2]}"
nref[0]=changed; echo "${arr[0]}"
