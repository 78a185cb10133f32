printf 'a 1\nb 2\nc 3\n' | awk '{s+=$2} END {print s}'
printf 'x,1\ny,2\n' | awk -F, '{print $2 ":" $1}'
