f() { echo "in f"; } >&2; f 2>/dev/null; echo done
