printf '%i\n' 010 0x10
