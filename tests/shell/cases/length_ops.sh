s="hello"; arr=(a bb ccc)
echo ${#s} ${#arr[@]} ${#arr[1]} ${#arr}
declare -A m=([a]=1 [b]=2); echo ${#m[@]}
set -- x y z; echo ${#@} ${#*} $#
