cat > grades.txt <<'EOF'
alice 88 92 79
bob 65 70 58
carol 95 98 100
dave 72 60 81
EOF
while read -r name a b c; do
  avg=$(( (a + b + c) / 3 ))
  if (( avg >= 90 )); then g=A; elif (( avg >= 80 )); then g=B; elif (( avg >= 70 )); then g=C; else g=F; fi
  printf '%-6s %3d %s\n' "$name" "$avg" "$g"
done < grades.txt | sort -k2,2nr
