echo "1 2" | { read -n 1 c; echo "[$c]"; }
