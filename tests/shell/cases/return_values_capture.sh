get_status() { [[ $1 == ok ]]; }
get_status ok; echo $?
get_status bad; echo $?
out=$(get_status bad; echo "inner $?")
echo "$out"
f() { echo out; return 7; }
v=$(f); echo "v=$v st=$?"
