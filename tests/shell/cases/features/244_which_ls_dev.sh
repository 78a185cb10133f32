which ls 2>/dev/null || command -v ls
