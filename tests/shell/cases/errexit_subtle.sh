set -e
f() { false; echo "not reached in f"; }
if f; then echo "f true"; else echo "f false"; fi
! false
false || true
x=$(false; echo "continued in subst")
echo "x=$x"
(false); echo "unreachable"
