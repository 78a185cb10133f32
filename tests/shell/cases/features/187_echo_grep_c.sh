echo "$SHELL" | grep -c bash
