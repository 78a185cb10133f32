a=abc b=abd
[ "$a" \< "$b" ] && echo less
[[ $a < $b ]] && echo less2
[ -z "$unset" ] && echo "unset is empty"
[ -n "$a" ] && echo "a nonempty"
[ "$a" ] && echo "bare string true"
[ "" ] || echo "empty string false"
