read a b c <<< "1 2 3"
echo $((a+b+c))
bc_like() { echo $(( $1 $2 $3 )); }
bc_like 6 '*' 7
