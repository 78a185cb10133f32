printf '%s\n' {a..c}{1..2} | head -3
