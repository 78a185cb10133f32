seq 1 30 > n
head -n 3 n; head -3 n; head -n -27 n; head -c 10 n | od -c | head -2
tail -n 2 n; tail -2 n; tail -n +29 n; tail -c 6 n; tail +29 n
head -n 1 n n; tail -qn 1 n n; head -v -n1 n
printf 'x\ny\nz' > noeol; tail -n 1 noeol; echo; head -c -1 noeol; echo
head nope 2>/dev/null; echo "head missing $?"
tail -n x n 2>/dev/null; echo "tail bad $?"
head -n 2 - < n
seq 100000 | tail -1
seq 5 | head -n 2 | tail -n 1
wc n; wc -l n; wc -w n; wc -c n; wc -L n; wc -lwc n noeol
wc < n; cat n | wc -l; wc -m noeol
wc nope n 2>/dev/null; echo "wc missing $?"
printf 'a b\tc\n  d\n' | wc
echo hi | tee t1 t2 | wc -c; cat t1 t2
echo more | tee -a t1 >/dev/null; cat t1
