for n in 0 1 2 10; do
  if (( n )); then echo "$n truthy"; else echo "$n falsy"; fi
done
x=3
while (( x-- > 0 )); do echo "x=$x"; done
(( 1 < 2 && 3 > 2 )) && echo "compound"
