cat > sales.csv <<'EOF'
region,product,amount
north,widget,100
south,widget,250
north,gadget,75
east,widget,30
south,gadget,120
EOF
declare -A total
while IFS=, read -r region product amount; do
  [ "$region" = region ] && continue
  total[$region]=$(( ${total[$region]:-0} + amount ))
done < sales.csv
for r in $(printf '%s\n' "${!total[@]}" | sort); do
  printf '%-6s %5d\n' "$r" "${total[$r]}"
done
