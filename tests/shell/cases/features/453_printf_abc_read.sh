printf 'abc' | { read -N 2 c; echo "[$c]"; }
