echo "a=1" | { IFS='=' read -r k v; echo "$k -> $v"; }
