# diff | patch round trips, offsets, rejects, -R, -N, trees with created and deleted files
seq 1 30 > orig; sed 's/^5$/five/; s/^25$/twentyfive/; /^12$/d' orig > changed
diff -u orig changed > p.diff
cp orig work; patch work < p.diff; echo "status $?"; cmp work changed && echo same
patch -R work p.diff; echo "status $?"; cmp work orig && echo back
(echo x; echo y; cat orig) > shifted; patch shifted p.diff; echo "status $?"; ls shifted*
patch -N shifted p.diff; echo "status $?"; rm -f shifted.rej
printf 'q\n' > other; patch other p.diff; echo "status $?"; ls other*; cat other.rej | tail -n +3
patch --dry-run -i p.diff orig; echo "status $?"; cmp orig work && echo untouched
mkdir -p a/sub b/sub; echo old > a/f; echo new > b/f; printf 'x\ny\n' > b/created; echo bye > a/sub/gone
printf 'no newline' > a/nonl; printf 'still none' > b/nonl
diff -ruN a b > tree.diff; echo "diff status $?"
mkdir w && cp -r a/. w/ && cd w && patch -p1 < ../tree.diff; echo "status $?"
ls -R . ; cat f created nonl; echo
patch -p1 -R < ../tree.diff; echo "status $?"; ls; cd ..
printf -- '--- x\n+++ x\n@@ -1 +1 @@\n-a\n+b\n' | patch -p0; echo "status $?"
echo garbage | patch 2>/dev/null; echo "status $?"
seq 1 10 > n1; seq 1 10 | sed 's/^3$/three/; /^7$/d; $a\eleven' > n2; diff n1 n2 > n.diff
cp n1 nt; patch nt n.diff; cmp nt n2 && echo normal-same; (echo x; cat n1) > nt2; patch nt2 n.diff; echo "status $?"
patch -R nt n.diff; cmp nt n1 && echo normal-back; patch < n.diff 2>/dev/null; echo "status $?"
(seq 2 10) > up; patch up n.diff; echo "status $?"
