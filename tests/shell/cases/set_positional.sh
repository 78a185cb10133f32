set -- one two three
echo "$# $1 $3"
shift 2
echo "$# $1"
set --
echo "$#"
set -- "a b" c
for x; do echo "[$x]"; done
