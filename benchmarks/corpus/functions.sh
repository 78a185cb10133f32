# function calls and recursion
fib() {
  local n=$1
  if (( n < 2 )); then echo "$n"; return; fi
  echo $(( $(fib $((n - 1))) + $(fib $((n - 2))) ))
}
fib 14
count() { local c=0; for x in "$@"; do c=$((c + 1)); done; echo $c; }
for i in $(seq 1 500); do count a b c d > /dev/null; done
echo done
