# build a CSV, then summarise it with a while-read loop and an associative array
for i in $(seq 1 2000); do
  echo "$i,user$((i % 37)),$((i * 7 % 100))"
done > data.csv
declare -A total
while IFS=, read -r id user amount; do
  total[$user]=$(( ${total[$user]:-0} + amount ))
done < data.csv
for u in "${!total[@]}"; do echo "$u ${total[$u]}"; done | sort | head -5
