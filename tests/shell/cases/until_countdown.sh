n=5
until (( n == 0 )); do printf '%d...' $n; ((n--)); done
echo liftoff
