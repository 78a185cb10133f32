# timeout's status after the time-out, per signal: KILL ends timeout itself (137, whatever the
# options; bash then prints "Killed" for a foreground command, hence the substitutions and
# pipelines here); any other signal gives 124, or 128+N with --preserve-status
x=$(timeout -s KILL 0.2 sleep 5); echo "kill $?"
x=$(timeout --signal=9 0.2 sleep 5); echo "9 $?"
timeout -s SIGKILL 0.2 sleep 5 | cat; echo "pipe ${PIPESTATUS[*]}"
{ timeout -s KILL 0.2 sleep 5; } 2>/dev/null; echo "group $?"
timeout -s KILL --foreground 0.2 sleep 5; echo "foreground kill $?"
timeout --preserve-status -s KILL --foreground 0.2 sleep 5; echo "preserve foreground kill $?"
timeout -s INT 0.2 sleep 5; echo "int $?"
timeout --preserve-status -s INT 0.2 sleep 5; echo "preserve int $?"
timeout --preserve-status 0.2 sleep 5; echo "preserve term $?"
timeout -s USR1 0.2 sleep 5; echo "usr1 $?"
timeout --foreground -k 2 --preserve-status -s HUP 0.2 sleep 5; echo "hup $?"
timeout -k 0.2 0.2 sleep 5; echo "kill-after $?"
timeout -s KILL 5 true; echo "in time $?"
timeout -s KILL 5 sh -c 'exit 7'; echo "own status $?"
timeout -s FOO 1 true; echo "bad signal $?"
timeout -k 1x 1 true; echo "bad kill-after $?"
