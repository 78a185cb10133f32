# how bash reads ${...}: ${###}, ${x////c}, ternaries in offsets, quotes and braces inside
set -- $(seq 25)
echo ${#} ${##} ${###} ${####} ${##2} ${#%5} ${#-x} ${#?} ${#-} ${#:1}
x=/a/b/ y=a/cb
echo ${x////c} ${x///} ${x//'/'/c} ${y///c} ${x/#/c} ${x/%/c}
s=abcd
echo ${s: 0 < 1 ? 2 : 0 : 1} ${s:1?0:2} ${s::2}
echo ${u:-{a}} ${u:-a{b,c}d} "${u:-{a}b}c" ${u:-{a}b}c
foo='a b c d' var='a b c'
printf '[%s]' "${foo//'c d'/'zzz'}" "${u-'}'}" "${u:-'$var'}" "${u-a \
b}"; echo
echo $\
? "x `echo \"hi\"`"
cat <<${a}
here
${a}
func-name=ext () { echo in func-name=ext; }
func-name=ext
let v=( 2 * 3 ); echo $v
$u-bar() { echo never; }
echo "bad name: $?"
echo ${s:}
echo not reached
