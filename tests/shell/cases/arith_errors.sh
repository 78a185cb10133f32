echo $((10 / 2))
(( 0 )) ; echo "status $?"
(( 5 )) ; echo "status $?"
let x=3+4 y=x*2; echo $x $y
let "z = 0"; echo "let status $?"
