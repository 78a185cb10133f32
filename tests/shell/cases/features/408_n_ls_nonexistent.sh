[ -n "$(ls /nonexistent 2>/dev/null)" ] || echo nothing
