printf '%s\n' "${!HO*}"
