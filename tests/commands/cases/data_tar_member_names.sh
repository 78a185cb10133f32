# tar c keeps each member name as the operand is written (./x, dir//x, dir/./x; a directory
# operand's trailing slashes go); a leading / and everything up to the last .. are removed
mkdir -p dir/sub up && touch dir/a dir/sub/b && cd up
for ops in "-C ../dir ." "-C ../dir ./" "-C ../dir ./a ./sub" "-C .. dir" "-C .. dir/" "-C .. dir//" "-C .. ./dir/" "-C .. dir/./a" "-C .. dir//a" "-C .. dir/sub/../a" "../dir/a" "-C .. dir/." "-C ../dir .//sub" "-C ../dir ./sub/" "-C ../dir sub/./" "-C ../dir ././a" "-C ../dir sub/.." "-C ../dir ./sub/../a"; do
  echo "== tar $ops"; tar -cf ../t.tar $ops; echo "status $?"; tar -tf ../t.tar | sort | tr '\n' ' '; echo
done
tar -cvf ../t.tar -C ../dir . | sort
mkdir ../x && tar -xf ../t.tar -C ../x && find ../x | sort
