s="héllo wörld"
echo "$s"
printf '%s\n' "$s" | wc -c
echo "${s/wörld/there}"
