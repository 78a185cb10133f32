IFS=: read a b <<< "x:y:z:"; echo "[$a][$b]"
