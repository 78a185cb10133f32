# a lookup's message (bad array subscript) goes to the stderr of the command that made it,
# not to the redirected stderr of the command before
a=(1 2 3)
f() { local x=1; echo "in f"; }
f 2>&1
for v in ${a[-5]} "${a[@]}"; do echo "v=$v"; done
f 2>&1
for ((i = a[-5]; i < 1; i++)); do echo "i=$i"; done
