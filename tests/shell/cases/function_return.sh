is_even() { return $(( $1 % 2 )); }
for n in 1 2 3 4; do
  if is_even $n; then echo "$n even"; else echo "$n odd"; fi
done
f() { echo "args: $#: $*"; shift; echo "after shift: $1"; }
f a b c
