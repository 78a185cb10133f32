# indexed arrays
arr=()
for i in $(seq 1 3000); do arr+=("item$i"); done
echo "${#arr[@]} ${arr[0]} ${arr[-1]}"
sum=0
for x in "${arr[@]:100:500}"; do sum=$((sum + ${#x})); done
echo $sum
