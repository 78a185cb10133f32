# a trap runs when the shell's own pid gets its signal (from a child or from itself): before the
# next command, $? kept around it, its lines counted from 1; pending ones in signal order;
# return in it returns from the function it interrupted; '' ignores the signal
trap 'echo "USR1 trap status=$? line=$LINENO"; ( exit 42 )' USR1
trap 'echo USR2 trap' USR2
echo before=$?
bash -c "kill -USR1 $$"
echo after=$?
false
kill -USR1 $$
echo after2=$?
( kill -USR2 $$; kill -USR1 $$; echo subshell done )
echo after3
f() { kill -USR1 $$; echo "in f"; }
f
trap 'echo got; return 5' USR1
f; echo "f=$?"
trap 'echo exiting; exit 7' USR2
trap '' USR1
kill -USR1 $$; echo ignored
trap -p USR1
kill -USR2 $$
echo not reached
