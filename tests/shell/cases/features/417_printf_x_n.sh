printf 'x\n' | cat -A 2>/dev/null || printf 'x$\n'
