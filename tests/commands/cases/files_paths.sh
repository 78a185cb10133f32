# readlink, realpath, basename, dirname, pwd, mktemp, truncate
mkdir -p d/e && touch d/f && ln -s d/f lf && ln -s nope dang && ln -s loop1 loop2 && ln -s loop2 loop1
readlink lf; readlink d/f; echo "status=$?"
readlink -f lf | sed "s|$PWD|HERE|"
readlink -f dang | sed "s|$PWD|HERE|"
readlink -e dang; echo "status=$?"
readlink -m x/../y/z | sed "s|$PWD|HERE|"
readlink -f loop1; echo "status=$?"
readlink -n lf; echo
readlink -v d 2>&1; echo "status=$?"
realpath lf d/e/.. | sed "s|$PWD|HERE|"
realpath nope/x 2>&1; echo "status=$?"
realpath -e dang 2>&1; echo "status=$?"
realpath -m a/../b | sed "s|$PWD|HERE|"
realpath -s lf | sed "s|$PWD|HERE|"
realpath --relative-to=d/e d/f lf
realpath --relative-to=/usr/bin /usr/lib
realpath loop1 2>&1; echo "status=$?"
basename /a/b/c.txt; basename /a/b/c.txt .txt; basename c.txt .txt; basename /; basename a/b/
basename -a x/y z/w; basename -s .c a.c b/c.c
basename 2>&1; basename a b c 2>&1; echo "status=$?"
dirname /a/b/c a a/ / //x a//b//
cd d/e && pwd | sed "s|.*/d/e|HERE/d/e|" && /bin/pwd | sed "s|.*/d/e|HERE/d/e|" && cd ../..
mktemp -u abc 2>&1; echo "status=$?"
t=$(mktemp tmpXXXXXX) && test -f "$t" && stat -c %a "$t"
t=$(mktemp -d) && test -d "$t" && stat -c %a "$t" && rmdir "$t"
t=$(mktemp -p d xxXXX.sh) && case $t in d/xx???.sh) echo shape-ok;; esac
printf 'hello world' > tr
truncate -s 5 tr && cat tr; echo
truncate -s +3 tr && stat -c %s tr
truncate -s 1K tr2 && stat -c %s tr2
truncate -s %1000 tr && stat -c %s tr
truncate -c -s 0 absent; ls absent 2>/dev/null; echo "status=$?"
truncate tr 2>/dev/null; echo "status=$?"
