diff <(printf 'a\nb\n') <(printf 'a\nc\n') > /dev/null || echo "differ"
cat <(echo one) <(echo two)
while read -r x; do echo "got $x"; done < <(seq 3)
