f=counter
for i in 1 2 3 4; do
  n=$(cat $f 2>/dev/null || echo 0)
  echo $((n + 1)) > $f
done
cat $f
