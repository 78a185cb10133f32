while IFS=: read -r k v; do echo "$k=>$v"; done <<< $'a:1\nb:2:3\n'
