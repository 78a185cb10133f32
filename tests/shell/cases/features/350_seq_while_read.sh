seq 3 | while read l; do echo "L$l"; done
