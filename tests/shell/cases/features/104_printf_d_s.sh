printf '%*d|%-*s|\n' 5 42 4 ab
