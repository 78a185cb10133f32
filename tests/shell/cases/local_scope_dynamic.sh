x=global
f() { local x=f; g; }
g() { echo "g sees $x"; x=changed-by-g; }
f
echo "after f: $x"
h() { local -i n=3; n+=2; echo $n; }
h
