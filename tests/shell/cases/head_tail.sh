for i in $(seq 1 10); do echo "line $i"; done > ten
head -n 3 ten
tail -n 2 ten
head -c 7 ten; echo
