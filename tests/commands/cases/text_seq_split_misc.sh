seq 5; seq 3 7; seq 1 0.5 3; seq 10 -2 1; seq -w 8 11; seq -s, 1 5; seq -f '%05.1f' 1 3
seq 0.1 0.1 0.5; seq 1e3 1e3 3e3; seq -w -1 1; seq 5 1; echo "empty seq $?"
seq 1 0 3 2>/dev/null; echo "zero step $?"
seq x 2>/dev/null; echo "bad seq $?"
seq 1e12 | head -3
yes | head -3; yes hello world | head -2
seq 25 > in
split -l 10 in; wc -l xaa xab xac; rm x??
split -b 20 -d in part; ls part*; cat part02; rm part*
split -n l/3 in chunk; wc -l chunk*; rm chunk*
split -n 2/3 in | head -2
shuf -e a b c | sort; shuf -i 1-5 | sort -n | tr '\n' ' '; echo
shuf -n 2 -e x y z | wc -l; shuf -r -n 5 -e q | uniq -c
expr 5 + 3; expr 10 / 3; expr 10 % 3; expr 2 \* 21; expr length hello
expr substr hello 2 3; expr index hello lo; expr abc : 'a\(.\)c'; expr abc : '.*'
expr 3 \< 10; expr abc \< abd; expr 0 \| 5; expr 3 \& 0; echo "and $?"
expr 1 / 0 2>/dev/null; echo "div $?"
expr 1 + 2>/dev/null; echo "syntax $?"
expr '' ; echo "null $?"
i=0; while [ "$(expr $i \< 3)" = 1 ]; do i=$(expr $i + 1); done; echo "$i"
printf 'a b\nc\n' | xargs -n1 echo; printf 'a\nb\n' | xargs -I{} echo x{}y
printf 'a\0b\0' | xargs -0 echo; echo a,b,c | xargs -d, -n1 echo
echo | xargs -r echo hi; printf '1\n2\n3\n' | xargs -L2 echo
echo a | xargs false; echo "xargs false $?"
echo a | xargs nonexistent_cmd 2>/dev/null; echo "xargs missing $?"
printf 'f1\nf2\n' | xargs touch; ls f1 f2
seq 10 | xargs -n 4 | tail -1
