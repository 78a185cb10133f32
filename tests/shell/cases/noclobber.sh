set -C
echo one > f
echo two > f 2>/dev/null || echo "refused"
echo three >| f
cat f
