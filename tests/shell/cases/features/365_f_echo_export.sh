f() { echo $1; }; export -f f 2>/dev/null; echo ok
