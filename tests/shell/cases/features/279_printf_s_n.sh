printf '%s\n' --
