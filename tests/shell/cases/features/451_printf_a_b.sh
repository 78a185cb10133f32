printf 'a b\\\nc\n' | { read -r x y; echo "[$x][$y]"; }
