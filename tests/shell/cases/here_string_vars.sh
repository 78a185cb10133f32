v="multi word value"
wc -w <<< "$v"
tr ' ' '-' <<< $v
read -r a b <<< "$v"; echo "$b"
