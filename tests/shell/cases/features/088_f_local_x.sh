f() { local x=1; echo $x; }; declare -f f
