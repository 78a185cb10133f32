total=0
for i in $(seq 1 100); do total=$((total + i)); done
echo $total
total=0
for ((i=1; i<=100; i++)); do ((total += i)); done
echo $total
