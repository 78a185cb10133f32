x=10
(( x += 5, x *= 2 ))
echo $x
(( y = x > 20 ? 1 : 0 )); echo $y
z=$(( (x & 0xF) | 0x100 )); echo $z
echo $(( 2 ** 3 ** 2 ))
echo $(( -2 ** 2 ))
a=5; echo $(( a++ + ++a )) $a
echo $(( 1, 2, 3 ))
n=0; (( n++ )); echo "status $? n=$n"
