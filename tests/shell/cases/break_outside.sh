break 2>/dev/null; echo "st $?"
for i in 1 2 3; do for j in 1 2; do [ $j = 2 ] && break 5; echo $i$j; done; done
