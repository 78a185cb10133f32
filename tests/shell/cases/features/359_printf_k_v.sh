printf 'k=v\n' | { IFS== read k v; echo "$k:$v"; }
