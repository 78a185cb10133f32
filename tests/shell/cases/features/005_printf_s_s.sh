printf '%s %s\n' $(echo a b c)
