cd --help | head -1
