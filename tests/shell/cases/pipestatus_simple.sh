# PIPESTATUS: empty at start, set by every simple command, (( )), [[ ]], ( ) and pipeline
echo "start=[${PIPESTATUS[*]}]"
false
echo "false=${PIPESTATUS[*]}"
exit 55 | (exit 44)
echo "pipe=${PIPESTATUS[*]}"
if false; then :; fi
echo "if=${PIPESTATUS[*]}"
(( 0 ))
echo "arith=${PIPESTATUS[*]}"
[[ a == b ]]
echo "cond=${PIPESTATUS[*]}"
(exit 3)
echo "subshell=${PIPESTATUS[*]}"
false | true
x=$(exit 6)
echo "assign=${PIPESTATUS[*]}"
false | true
true &
echo "background=${PIPESTATUS[*]}"
wait
