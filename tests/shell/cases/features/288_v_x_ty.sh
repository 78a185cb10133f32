v=$'x\ty'; IFS=$'\t' read -r a b <<< "$v"; echo "$b-$a"
