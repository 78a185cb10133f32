names=(alpha beta gamma)
printf '['
for i in "${!names[@]}"; do
  (( i )) && printf ','
  printf '{"id":%d,"name":"%s"}' $((i+1)) "${names[i]}"
done
printf ']\n'
