# kill $! reaches the job's own shell: a ( ) & or a nested bash -c & is that process (bash
# execs it), so its traps run (after the command it is in finishes); a job without a trap
# dies of it (128+N); INT is ignored by jobs without job control (the EXIT trap then runs
# at the job's normal end). Each job says when it is ready; the signal comes after that.
ready() { until [ -e "$1" ]; do sleep 0.01; done; }
( trap 'echo job got usr1' USR1; touch r1; until [ -e g1 ]; do sleep 0.01; done; echo job done ) &
ready r1; kill -USR1 $!; touch g1; wait $!; echo "trapped=$?"
bash -c 'trap "echo nested got usr2" USR2; touch r2; until [ -e g2 ]; do sleep 0.01; done' &
ready r2; kill -USR2 $!; touch g2; wait $!; echo "nested=$?"
{ touch r3; until [ -e g3 ]; do sleep 0.01; done; } &
ready r3; kill -USR1 $!; wait $!; echo "untrapped=$?"
bash -c 'trap "echo on exit" EXIT; touch r4; until [ -e g4 ]; do sleep 0.01; done; echo after int' &
ready r4; kill -INT $!; touch g4; wait $!; echo "int=$?"
{ touch r5; until [ -e g5 ]; do sleep 0.01; done; } &
ready r5; kill -URG $!; kill -WINCH $!; touch g5; wait $!; echo "urg=$?"
