echo out 1>&2 2>/dev/null
