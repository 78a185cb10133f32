arr=(2 5 8 12 16 23 38 56 72 91)
bsearch() {
  local target=$1 lo=0 hi=$(( ${#arr[@]} - 1 )) mid
  while (( lo <= hi )); do
    mid=$(( (lo + hi) / 2 ))
    if (( arr[mid] == target )); then echo $mid; return 0
    elif (( arr[mid] < target )); then lo=$((mid + 1))
    else hi=$((mid - 1)); fi
  done
  echo -1; return 1
}
for t in 23 2 91 7; do echo "$t -> $(bsearch $t)"; done
