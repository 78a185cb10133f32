fib() {
  local n=$1
  if (( n < 2 )); then echo $n; return; fi
  local a=$(fib $((n-1)))
  local b=$(fib $((n-2)))
  echo $((a + b))
}
fib 10
fact() { (( $1 <= 1 )) && echo 1 || echo $(( $1 * $(fact $(( $1 - 1 ))) )); }
fact 10
