# diff formats, directories and exit statuses
printf 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n' > f1
printf 'a\nB\nc\nd\ne\nf\ng\nh\nI\nj\nk' > f2
diff f1 f2; echo "status $?"
diff -u --label old --label new f1 f2; echo "status $?"
diff -U1 --label old --label new f1 f2
diff -c --label old --label new f1 f2
diff -e f1 f1; diff -q f1 f2; echo "status $?"
diff -s f1 f1; diff f1 f1; echo "status $?"
diff f1 missing; echo "status $?"
printf 'hello  world\nfoo\n\nbar \n' > w1; printf 'hello world\nFOO\nbar\n' > w2
diff w1 w2; diff -w w1 w2; diff -b w1 w2; diff -i -w -B w1 w2; echo "status $?"
mkdir -p d1/sub d2/sub; echo a > d1/x; echo b > d2/x; echo o > d1/only; echo s > d1/sub/f; echo t > d2/sub/f; echo n > d2/new
diff d1 d2; echo "status $?"
diff -r d1 d2; diff -rq d1 d2; diff -rN d1 d2 | grep -v '^[-+][-+][-+] '
diff -ru d1 d2 | sed 's/\t.*//'
seq 1 50 > s1; seq 1 50 | sed 's/^17$/seventeen/; /^30$/d; s/^44$/44\n44b/' > s2
diff s1 s2; diff -u s1 s2 | tail -n +3
printf 'x\0y' > bin; diff bin f1; echo "status $?"
export LC_ALL=C
cmp f1 f1; echo "status $?"; cmp f1 f2; echo "status $?"
printf '1\n2\n3\n' > c1; printf '1\n2\n' > c2; printf '1\nX\n3\n' > c3
cmp c1 c3; cmp -l c1 c3; cmp -b c1 c3; cmp -s c1 c3; echo "status $?"
cmp c1 c2 2>&1; echo "status $?"; cmp -n 2 c1 c3; echo "status $?"; cmp -i 2 c1 c3; echo "status $?"
printf 'a\n\tb\nc\nlong line that is definitely longer than sixty one characters in total width ok\n' > y1
printf 'a\n\tB\nc\nnew\n' > y2
diff -y y1 y2; diff -y -W 40 y1 y2; diff -y --suppress-common-lines y1 y2; diff -y --left-column y1 y2
diff -y -t y1 y2; diff -y f1 f2; echo; echo "status $?"
