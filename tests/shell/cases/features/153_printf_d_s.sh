printf '%d %s\n' 1 a 2
