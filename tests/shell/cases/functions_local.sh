counter=0
inc() {
  local step=${1:-1}
  counter=$((counter + step))
}
inc; inc 5; inc
echo "counter=$counter"
outer() { local v=outer; inner; echo "after inner: $v"; }
inner() { v=changed; echo "inner sees: $v"; }
outer
echo "global v: ${v:-unset}"
