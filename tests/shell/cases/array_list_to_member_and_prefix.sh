# NAME[i]=(...) parses and fails when it runs (cannot assign list to array member, the line abandoned);
# before a command, NAME=(...) binds the text "(...)" and NAME[i]=x binds nothing
a=(1 2)
a[0]=(3 4)
echo "status=$? ${a[@]}"
a[0]=(3 4); echo same-line
echo "status=$?"
a[-1]+=(4 5)
echo "status=$? ${a[@]}"
f() { a[1]=(9); echo in-f; }
f
echo "after-f $?"
g() { a[1]=(9) x=1; }; declare -f g
A=a B=(b b) env | grep -E '^(A|B)=' | sort
A=a B=([k]=v) env | grep -E '^(A|B)=' | sort
a=1 b[0]=2 c=3 env | grep -E '^(a|b|c)=' | sort
B=(b "c d") bash -c 'declare -p B'
B=(b b) :; declare -p B 2>&1
