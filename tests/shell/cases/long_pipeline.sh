seq 1 20 | grep 1 | sort -r | head -n 3 | tr '\n' ' '
echo
echo "a b c" | tr ' ' '\n' | sort -r | tr -d '\n'; echo
