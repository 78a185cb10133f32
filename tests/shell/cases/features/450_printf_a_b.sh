printf 'a b\\\nc\n' | { read x y; echo "[$x][$y]"; }
