for n in 5 255 1024; do
  bin=""; x=$n
  while (( x > 0 )); do bin=$((x % 2))$bin; x=$((x / 2)); done
  printf '%d %s %x %o\n' $n $bin $n $n
done
echo $((2#1111)) $((8#17)) $((36#z)) $((64#_))
