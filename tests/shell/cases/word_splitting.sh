list="a b
c	d"
for w in $list; do echo "[$w]"; done
IFS=: ; p="x:y::z"
for w in $p; do echo "<$w>"; done
unset IFS
set -- $(echo "  lead trail  ")
echo $#
