# a signal nothing traps: URG, CHLD and WINCH do nothing; USR1, TERM, HUP, KILL end the
# process with 128+N (the EXIT trap runs for the signals bash catches, not for KILL)
(kill -URG $BASHPID; kill -CHLD $BASHPID; kill -WINCH $BASHPID; echo still here)
(kill -USR1 $BASHPID; echo not reached); echo "usr1=$?"
(kill -TERM $BASHPID; echo not reached); echo "term=$?"
(trap 'echo exit trap' EXIT; kill -HUP $BASHPID; echo not reached); echo "hup=$?"
(trap 'echo exit trap' EXIT; kill -KILL $BASHPID; echo not reached); echo "kill=$?"
x=$(kill -USR2 $BASHPID; echo no); echo "cmdsub=$? x=$x"
bash -c 'kill -USR1 $$; echo no'; echo "sh=$?"
bash -c 'trap "echo exit in sh" EXIT; kill -TERM $$; echo no'; echo "sh=$?"
kill -0 $$; echo "zero=$?"
(exit 3) & p=$!; wait $p
kill -0 $p 2>/dev/null; echo "ended job=$?"
echo "subshell pid differs=$( [ "$(echo $BASHPID)" != $$ ] && echo yes)"
