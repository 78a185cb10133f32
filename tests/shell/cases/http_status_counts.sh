cat > access.log <<'EOF'
10.0.0.1 - - [01/Jan/2024] "GET /index.html" 200 512
10.0.0.2 - - [01/Jan/2024] "GET /missing" 404 128
10.0.0.1 - - [01/Jan/2024] "POST /api" 500 64
10.0.0.3 - - [01/Jan/2024] "GET /index.html" 200 512
10.0.0.1 - - [01/Jan/2024] "GET /about" 200 256
EOF
total=0
declare -A by_status
while read -r ip _ _ _ _ _ status bytes; do
  by_status[$status]=$(( ${by_status[$status]:-0} + 1 ))
  total=$(( total + bytes ))
done < access.log
for s in 200 404 500; do echo "$s: ${by_status[$s]}"; done
echo "bytes: $total"
awk '{print $1}' access.log | sort | uniq -c | sort -rn | head -1
