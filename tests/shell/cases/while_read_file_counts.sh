printf 'x\ny\nx\nz\nx\ny\n' > items
declare -A seen
while read -r item; do
  seen[$item]=$(( ${seen[$item]:-0} + 1 ))
done < items
for k in x y z; do echo "$k ${seen[$k]}"; done
