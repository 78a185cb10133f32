# log processing
for i in $(seq 1 3000); do
  case $((i % 4)) in
    0) lvl=ERROR ;; 1) lvl=INFO ;; 2) lvl=WARN ;; *) lvl=DEBUG ;;
  esac
  echo "2024-01-$(( i % 28 + 1 )) 12:00:$((i % 60)) $lvl request id=$i took=$((i % 250))ms"
done > app.log
grep -c ERROR app.log
grep ERROR app.log | sed -E 's/.*took=([0-9]+)ms/\1/' | awk '{s += $1} END {print s / NR}'
awk '$3 == "WARN" {n[$1]++} END {for (d in n) c++; print c}' app.log
