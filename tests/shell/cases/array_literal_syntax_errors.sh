# a syntax error inside an array's (...) drops the rest of its line only, with status 1;
# bash reads on at the next line (an enclosing if is lost with it: its fi is then an error)
a=( inside=() )
echo "len=${#a[@]} status=$?"
echo before; x=(a ; b); echo same
echo "next $?"
declare -a y=(1 (2) 3) z=4
echo "y=${y[*]} z=$z"
f() { x=(a > b); echo in-f; }
echo "after f: $?"
type f 2>&1 | head -1
