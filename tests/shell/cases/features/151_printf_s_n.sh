printf '%.3s\n' abcdef
