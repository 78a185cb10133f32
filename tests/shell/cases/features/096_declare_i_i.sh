declare -i i=1; i+=1; echo $i
