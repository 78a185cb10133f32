# $'...' is a C string: it ends at a NUL byte; an octal escape is one raw byte
show() { od -A n -t x1; }
echo $'\0' | show
echo "a$'b\0c'd" $'x\x00y' | show
nul=$'\0'
echo ${#nul}
test -n $'\0'; echo "test -n: $?"
touch foo; test -f $'foo\0bar'; echo "test -f: $?"
echo -n $'\377\101' | show
printf $'x\U0z' | show
