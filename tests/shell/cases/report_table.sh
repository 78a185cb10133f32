items=("widget:4:2.50" "gadget:10:1.25" "doohickey:1:10.00")
printf '%-10s %5s %8s\n' ITEM QTY TOTAL
grand=0
for entry in "${items[@]}"; do
  IFS=: read -r name qty price <<< "$entry"
  cents=${price/./}
  cents=$((10#$cents))
  total=$((qty * cents))
  grand=$((grand + total))
  printf '%-10s %5d %5d.%02d\n' "$name" "$qty" $((total/100)) $((total%100))
done
printf '%-10s %5s %5d.%02d\n' TOTAL "" $((grand/100)) $((grand%100))
