# declaration builtins expand every NAME=VALUE before they run: local x=$x reads the outer x
x=5; a=out
f() { local x=$x; echo "$x"; local y=$x$x z=$y; echo "$y [$z]"; }
f
g() { local a=1 b=$a; echo "[$b]"; declare c=$a d=$c; echo "[$c] [$d]"; readonly r=$x; echo "$r"; }
g
h() { local -i n=3+4; echo $n; local n=9; echo $n; local s=$(echo sub) t=${s:-none}; echo "$s $t"; }
h
k() { declare -n ref=x; ref=7; local q=$ref; echo "$x $q"; }
k
echo "$x"
m() { local -i n=3+4; local j=$((n*2)); echo "$n $j $_"; local p=1 q=$p; echo "[$q] $_"; }
m
ro() { readonly r=1; local r=2; echo "$? $r"; }
(ro) 2>/dev/null; echo "ro $?"
local outside=1 2>/dev/null; echo "outside $?"
( set -u; u() { local v=$nope; echo never; }; u; echo "after $?" ) 2>/dev/null; echo "nounset $?"
