# wait reports 128+N for a job kill ended with signal N, and remembers a reaped job's status
sleep 5 &
pid=$!
kill -TERM $pid; echo "kill=$?"
wait $pid; echo "wait=$?"
sleep 5 &
kill -s KILL %%
wait %%; echo "wait %%=$?"
(exit 3) &
p=$!
wait $p; echo "first=$?"
wait $p; echo "again=$?"
kill -l 9 15 SIGUSR1 usr2 137 0
kill -l 9999 2>/dev/null; echo "bad list=$?"
kill -9999 $p 2>/dev/null; echo "bad signal=$?"
kill -l | head -2
wait zzz 2>/dev/null; echo "wait zzz=$?"
wait 99999 2>/dev/null; echo "wait unknown=$?"
