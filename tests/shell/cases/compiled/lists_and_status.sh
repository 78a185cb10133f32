# lists, && || chains, if/elif and { } run by the compiled runners: statuses, errexit, ERR
x=1 && y=2 || z=3; echo "$x$y$z $?"
false || true && echo and-or
if [ $x = 2 ]; then echo no; elif [ $y -eq 2 ]; then echo elif; else echo else; fi; echo "if $?"
if false; then :; fi; echo "if-false $?"
{ false; true; }; echo "brace $?"
{ true; false; }; echo "brace $?"
trap 'echo "ERR at $LINENO status $?"' ERR
f() { false; echo "after false in f"; }; f
g() { x=1; return 3; }; g; echo "g $?"
trap - ERR
( set -e; true && false; echo "not reached by errexit?" ); echo "sub $?"
( set -e; false || true; echo "e-and-or ok" ); echo "sub $?"
( set -e; if false; then :; fi; echo "e-if ok"; f2() { false; }; f2; echo never ); echo "sub $?"
( set -e; x=$((1-1)); echo "assign ok"; (( x )); echo never ); echo "sub $?"
h() { trap 'echo "RETURN from h"' RETURN; return 5; }; h; echo "h $?"
k() { for i in 1 2 3; do [ $i = 2 ] && return 7; done; }; k; echo "k $?"
