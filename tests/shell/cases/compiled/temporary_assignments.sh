# VAR=x cmd compiled: bound while the command runs (exported), then as before; readonly,
# functions, special builtins, no command at all, redirections, a command that waits
printf 'a,b,c\n1,2,3\n' > /tmp/te.csv
while IFS=, read -r x y z; do echo "$x|$y|$z"; done < /tmp/te.csv; echo "IFS after [${IFS}]" | od -c | head -1
v=outer; v=inner printenv v; echo "v=$v"; unset u; u=temp printenv u; echo "u=${u-unset}"
LC_ALL=C TZ=UTC date -d @0 +%H; A=1 B=$A sh -c 'echo "A=$A B=$B"'; A=1; A=2 B=$A sh -c 'echo "A=$A B=$B"'
readonly ro=1; ro=2 echo "ro echo"; echo "status $?"
f() { echo "in f: $w"; w=changed; }; w=fn f; echo "after f: ${w-unset}"
w=colon :; echo "after colon: ${w-unset}"
z=nocmd $empty; echo "z=$z"
k=1 echo hi > /tmp/te.out; cat /tmp/te.out; echo "k=${k-unset}"
p=piped echo x | cat; q=waits cat < /tmp/te.csv | tail -1
s+=more printenv s; s=base; s+=more printenv s; echo "s=$s"
IFS=: read -r a b <<< "1:2"; echo "$a-$b"
rm -f /tmp/te.csv /tmp/te.out
