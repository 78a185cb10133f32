# ignored signals: a subshell may trap again what its parent ignores; a new shell cannot
# (ignored on entry), and lists them; background jobs without job control ignore INT and
# QUIT, and cannot trap INT
trap '' USR1
trap 'echo usr2' USR2
(trap -p; trap 'echo sub usr1' USR1; kill -USR1 $BASHPID; echo sub alive)
bash -c 'trap -p; trap "echo no" USR1; trap - USR1; trap -p; kill -USR1 $$; echo bash alive'
trap - USR1 USR2
(trap -p) &
wait
{ trap -p; trap 'echo no' INT; trap -p INT; kill -INT $BASHPID; kill -QUIT $BASHPID; echo job alive; } &
wait $!; echo "job=$?"
