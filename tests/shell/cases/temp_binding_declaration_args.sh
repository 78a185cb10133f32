# VAR=x before a declaration builtin: its NAME=value arguments expand before the binding
FOO=foo export v=$(env | grep -c '^FOO=') w=$FOO
echo "v=$v w=$w"
FOO=foo readonly r=$FOO
echo "r=$r"
FOO=foo declare q=$FOO s='*' t=~/x:~/y
echo "q=$q s=$s t=$t"
f() { FOO=inner local l=${FOO:-unset} m="a b"; echo "l=$l m=$m"; }
f
FOO=foo typeset -i n=2+3
echo "n=$n"
FOO=bar declare -x e=1
echo "FOO=${FOO-unset}"
