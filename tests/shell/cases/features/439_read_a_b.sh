IFS=: read a b <<< "x:y:"; echo "[$a][$b]"
