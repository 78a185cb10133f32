sum() {
  local total=0 n
  for n in "$@"; do total=$((total + n)); done
  echo $total
}
nums=(4 8 15 16 23 42)
echo "sum=$(sum "${nums[@]}")"
max() { local m=$1; shift; for x; do (( x > m )) && m=$x; done; echo $m; }
echo "max=$(max "${nums[@]}")"
