mkdir -p files
echo one > files/a; echo two > files/b; echo three > files/c
for f in files/*; do printf '%s %d\n' "$f" "$(wc -c < "$f")"; done > manifest
cat manifest
echo changed >> files/b
while read -r f size; do
  now=$(wc -c < "$f")
  [[ $now -eq $size ]] || echo "modified: $f ($size -> $now)"
done < manifest
