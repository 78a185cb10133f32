# an error that abandons a command line inside eval abandons only that line of the string
readonly x=1; eval "x=2; echo in"; echo st=$?; eval "echo \$((1/0)); echo in2"; echo st=$?
f() { eval "x=3"; echo f=$?; }; f
g() { local y=1; readonly y; eval 'y=2'; echo g=$?; }; g; echo next
eval "x=3
echo evalnext"; echo ev=$?
eval 'a[0]=(1); echo no'; echo list=$?
