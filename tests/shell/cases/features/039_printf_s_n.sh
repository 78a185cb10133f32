printf '%5.2s|\n' abcdef
