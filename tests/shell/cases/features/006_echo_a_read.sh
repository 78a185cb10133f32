echo "a" | { read x; echo $x; }; echo ${x:-empty}
