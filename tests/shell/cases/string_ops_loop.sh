words="apple Banana cherry Date"
for w in $words; do
  first=${w:0:1}
  rest=${w:1}
  echo "${first^}${rest,,} (${#w})"
done
s="a-b-c-d"
echo ${s//-/_}
IFS=- read -ra parts <<< "$s"
echo ${#parts[@]}
