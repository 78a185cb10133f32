# unmatched braces stay literal, later ones still expand; set +B; mixed-case ranges fail
echo {{a,b} {a,{b} x{,y}z {a{,b}
echo {1..3}{,-}{a,b} | wc -w
a=A
echo {"$a",b}{1..2} '{x,y}' "{x,y}"
set +B
echo {a,b}
set -B
echo -{z..A}-; echo not reached
echo status=$?
echo {Z..A} {z..a..5}
echo done
