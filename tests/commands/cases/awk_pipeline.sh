printf 'a 3\nb 5\na 2\nc 1\n' > data
awk '{s[$1]+=$2} END {for (k in s) print k, s[k]}' data | sort
awk '$2 > 2 {n++} END {print n+0, NR}' data
awk -F' ' -v OFS=, '{$1=$1; print}' data
printf 'x,y\n1,2\n' | awk -F, 'NR>1 {printf "%d %s\n", $1+$2, toupper($0)}'
echo 'b a' | awk '{ print | "cat" }'
awk 'BEGIN { r = system("exit 3"); print "status", r }'
