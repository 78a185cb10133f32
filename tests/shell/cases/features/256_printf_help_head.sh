printf --help 2>&1 | head -1 | cut -c1-6
