items=(b a c a b d)
declare -A seen
out=()
for i in "${items[@]}"; do
  [[ -n ${seen[$i]} ]] && continue
  seen[$i]=1; out+=("$i")
done
echo "${out[@]}"
