arr=(zero one two three four five)
echo "${arr[@]:2}"
echo "${arr[@]:2:2}"
echo "${arr[@]: -2}"
echo "${arr[@]/o/0}"
echo "${arr[@]#t}"
echo "${arr[@]^^}"
echo "${#arr[3]}"
copy=("${arr[@]}"); copy[0]=ZERO; echo "${arr[0]} ${copy[0]}"
