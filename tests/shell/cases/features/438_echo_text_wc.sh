echo text 1>&2 | wc -c
