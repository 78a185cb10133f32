IFS=: read a <<< "x:"; echo "[$a]"
