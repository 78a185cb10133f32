{ echo a; } >&- 2>/dev/null; echo rc=$?
