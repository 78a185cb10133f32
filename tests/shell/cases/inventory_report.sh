cat > inventory.txt <<'EOF'
sku001 Hammer 12 9.99
sku002 Screwdriver 0 4.50
sku003 Wrench 5 12.00
sku004 Pliers 0 7.25
sku005 Saw 3 19.95
EOF
in_stock=0 out_of_stock=()
while read -r sku name qty price; do
  if (( qty == 0 )); then
    out_of_stock+=("$name")
  else
    (( in_stock += qty ))
  fi
done < inventory.txt
echo "Items in stock: $in_stock"
echo "Out of stock (${#out_of_stock[@]}): ${out_of_stock[*]}"
printf '%s\n' "${out_of_stock[@]}" | sort
