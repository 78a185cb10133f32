x=outer
(x=inner; echo "in: $x"; cd /tmp)
echo "out: $x"
pwd >/dev/null
y=1; ( y=2 ); echo $y
echo "$(x=sub; echo $x) $x"
