n=10; while (( n > 0 )); do (( n -= 3 )); done; echo $n
