# a command substitution drops NUL bytes (with a warning), as bash does
s=$(printf '.\000.')
echo len=${#s}
s=$(printf '\000')
echo len=${#s}
s=$(printf '\000x'); s=${s#?}
echo len=${#s}
printf 'a\0b\n' > nul.txt
x=$(< nul.txt)
echo "${#x} $x"
f() { y=`printf 'p\0q'`; echo "$y"; }
f
