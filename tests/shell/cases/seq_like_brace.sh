echo {1..3}{a..b}
for i in {10..0..5}; do echo -n "$i "; done; echo
echo {a..c}-{1..2}
x=3; echo {1..$x}
