read -r a b <<< "  x  "; echo "[$a][$b]"
