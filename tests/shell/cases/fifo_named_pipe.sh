# named pipes: mkfifo, test -p, ls/stat see a FIFO; <> opens both ends (nothing waits); a
# reader waits for writers and gets end-of-file when they have all closed (also a writer that
# wrote nothing); a writer waits for a reader; the bytes pass through a bounded buffer
mkfifo p; echo "mkfifo=$?"
test -p p; echo "test -p=$?"; [ -p p ]; echo "[ -p ]=$?"; test -f p; echo "test -f=$?"
[[ -p p ]] && echo "[[ -p ]]"
ls -l p | cut -c1-10
stat -c '%F %a %s' p
ls -F p
exec 8<> p
echo first >&8
echo second >&8
read line1 <&8
read line2 <&8
exec 8<&-
echo "line1=$line1 line2=$line2"
echo hello > p &
cat p
wait
{ echo a; echo b; } > p &
while read x; do echo "got $x"; done < p
: > p &
cat p; echo "eof=$?"
seq 100000 > p &
wc -l < p
cat p > out &
seq 3 > p
wait; cat out
mkfifo p 2>/dev/null; echo "again=$?"
mkfifo -m 600 q; stat -c %a q
rm p q; test -p p; echo "gone=$?"
