(echo bg1) > o1 &
(echo bg2) > o2 &
wait
cat o1 o2
sleep_and_echo() { echo "job $1"; }
sleep_and_echo 1 > j1 & pid=$!
wait $pid; echo "status $?"
cat j1
