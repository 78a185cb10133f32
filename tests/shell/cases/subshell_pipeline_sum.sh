total=$(printf '%s\n' 10 20 30 | { s=0; while read n; do s=$((s+n)); done; echo $s; })
echo "total=$total"
avg=$(( total / 3 ))
echo "avg=$avg"
