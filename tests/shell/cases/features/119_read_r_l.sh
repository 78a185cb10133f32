IFS= read -r l <<< "  lead and trail  "; echo "[$l]"
