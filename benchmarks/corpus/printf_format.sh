# printf formatting report
for i in $(seq 1 2000); do
  printf '%-10s|%5d|%8.2f\n' "row$i" "$i" "$((i * 3)).5"
done | tail -2
