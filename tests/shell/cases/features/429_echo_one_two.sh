echo 'one two' | { read -r a b; echo "$b $a"; }
