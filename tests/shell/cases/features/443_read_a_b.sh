IFS=: read a b c <<< ":x"; echo "[$a][$b][$c]"
