printf '%s\n' a b | sort -r | tr -d '\n'; echo
