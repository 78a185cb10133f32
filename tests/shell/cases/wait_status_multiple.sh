f() { return $1; }
f 1 & p1=$!
f 2 & p2=$!
wait $p1; echo "p1 $?"
wait $p2; echo "p2 $?"
