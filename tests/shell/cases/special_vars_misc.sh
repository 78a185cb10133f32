echo $0 | grep -c bash
[[ $$ =~ ^[0-9]+$ ]] && echo pid-ok
sleep 0 & [[ $! =~ ^[0-9]+$ ]] && echo bgpid-ok; wait
echo "$-" | grep -c h
echo $RANDOM | grep -cE '^[0-9]+$'
[[ $SECONDS -ge 0 ]] && echo seconds
echo "line $LINENO"
