[ abc -eq 1 ] 2>/dev/null; echo "status $?"
[ 1 -eq ] 2>/dev/null; echo "status $?"
[[ 1 -eq 1 ]] && echo ok
[ ] ; echo "empty $?"
[ x ] ; echo "one $?"
