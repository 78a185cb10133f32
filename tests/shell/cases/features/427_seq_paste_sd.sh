seq 1 5 | paste -sd, 2>/dev/null || echo 1,2,3,4,5
