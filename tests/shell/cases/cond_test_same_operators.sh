# test, [ and [[ ]] share one set of unary and binary tests
touch a.txt; mkdir -p d; x=set; arr=(1 2)
for e in "-a a.txt" "-e a.txt" "-a nope" "-f d" "-d d" "-s a.txt" "-z ''" "-n x" "-v x" "-v arr[1]" "-v arr[5]" "-o errexit"; do
  eval "test $e" && t=T || t=F
  eval "[[ $e ]]" && b=T || b=F
  echo "$e: $t $b"
done
for e in "3 -eq 03" "2 -lt 10" "a = a" "a != a" "a.txt -ef a.txt" "a.txt -nt nope" "nope -ot a.txt"; do
  eval "test $e" && t=T || t=F
  eval "[[ $e ]]" && b=T || b=F
  echo "$e: $t $b"
done
test b '<' a || echo "test: b is not before a"
[[ b < a ]] || echo "[[: b is not before a"
[[ 1+1 -eq 2 ]] && echo "arith operands in [[ ]]"
test 1+1 -eq 2; echo "test: $?"
[ x -eq 1 ]; echo "[: $?"
