printf '%s %s %s\n' a b
