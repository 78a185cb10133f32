declare -A memo
fib() {
  local n=$1
  if (( n < 2 )); then echo $n; return; fi
  if [[ -n ${memo[$n]} ]]; then echo ${memo[$n]}; return; fi
  local a b
  a=$(fib $((n-1))); b=$(fib $((n-2)))
  echo $((a+b))
}
for i in 0 1 5 10 15; do printf '%d ' "$(fib $i)"; done; echo
