# cat: numbering, squeezing, visible characters, stdin and errors
printf 'a\n\n\n\nb\tc\n' > f1
printf 'no newline' > f2
printf '\x01\x7f\x80\xff\tz\n' > bin
cat f1 f2; echo
cat -n f1 f2; echo
cat -b f1
cat -s f1
cat -sn f1
cat -E f1
cat -T f1
cat -A bin
cat -v bin
cat -e f1
cat -t f1
echo stdin | cat f2 - f1
cat nope f2 2>/dev/null; echo " status=$?"
cat -z 2>/dev/null; echo "status=$?"
cat --bogus 2>/dev/null; echo "status=$?"
mkdir d; cat d 2>&1; echo "status=$?"
cat nope 2>&1; cat 'a b' 2>&1
printf "1\n2\n3\n4\n5\n" | cat -n | tail -2
