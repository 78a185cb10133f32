# DEBUG and ERR traps together: each runs inside the other, neither inside itself; a signal
# trap gets both, with LINENO counted from its own first line; RETURN runs in the ERR trap,
# not in the DEBUG trap
trap 'false; echo $LINENO err' ERR
trap 'false; echo $LINENO debug' DEBUG
false
echo after=$?
trap - DEBUG ERR
trap 'false; echo $LINENO usr1' USR1
trap 'echo $LINENO dbg' DEBUG
bash -c "kill -USR1 $$"
trap - DEBUG
trap 'echo $LINENO err' ERR
bash -c "kill -USR1 $$"
echo end
trap - ERR USR1
f() { :; }
set -T
trap 'echo ret' RETURN
trap 'f; echo err2' ERR
false
trap - ERR
trap 'f; echo dbg2' DEBUG
true
