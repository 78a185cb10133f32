seq 10 | awk '$1 % 3 == 0'
