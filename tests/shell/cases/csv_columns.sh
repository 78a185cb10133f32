cat > people.csv <<'EOF'
name,age,city
Ann,31,Paris
Bob,27,Berlin
Cid,45,Rome
EOF
{
  read -r header
  IFS=, read -ra cols <<< "$header"
  echo "columns: ${#cols[@]} (${cols[*]})"
  while IFS=, read -r name age city; do
    if (( age > 30 )); then echo "$name ($age) lives in $city"; fi
  done
} < people.csv
cut -d, -f1,3 people.csv | tail -n +2
