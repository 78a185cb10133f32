declare -i total=0
for n in 5 10 15; do total+=n; done
echo $total
declare -i x="3 + 4"; echo $x
let "y = total / 3" "z = y % 4"; echo $y $z
