# arithmetic loop
s=0
for ((i = 0; i < 20000; i++)); do
  s=$((s + i * 2 % 7))
done
echo "$s"
