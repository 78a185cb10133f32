# cmp's messages as GNU cmp writes them here: "char" in the C locale, "byte" in another --
# and a locale this machine lacks (only C, C.utf8 and POSIX are installed) leaves cmp in C
printf 'abc\ndef\n' > a; printf 'abc\ndxf\n' > b; printf 'abc\n' > c; : > e
printf 'x\200\377\001\n' > h; printf 'y\201\376\002\n' > k
for loc in C POSIX C.UTF-8 C.utf8 en_US.UTF-8 de_DE.UTF-8 C.ISO-8859-1 ''; do
  echo "-- LC_ALL=$loc"
  for args in "a b" "-l a b" "-b a b" "-bl a b" "a c" "e a" "-lb a c" "-n 5 a c" "-i 1:2 a b" "a b 1 2" "h k" "-b h k" "-l h k" "a -" "a b c d e"; do
    echo "cmp $args: $(LC_ALL=$loc LANG=C.UTF-8 cmp $args < c 2>&1; echo "status $?")"
  done
done
unset LC_ALL; export LANG=C.UTF-8
LC_MESSAGES=C cmp a b; LC_CTYPE=en_US.UTF-8 cmp a b; LC_TIME=xx cmp a b; LC_MESSAGES=C.UTF8 cmp a b
LANG=c.utf8 cmp a b; LANG=C.utf-8 cmp a b; LANG= LC_MESSAGES=C.UTF-8 cmp a b
