# env, printenv, date, sleep, timeout, true/false, which, getconf, kill
env -i A=1 B=two env; env -i FOO=bar printenv FOO; env -u HOME printenv HOME; echo "status $?"
env -i sh -c 'echo inner'; env nosuchcmd 2>/dev/null; echo "status $?"
printenv HOME; printenv NOPE; echo "status $?"
date -d '2024-01-15 10:30:00' '+%Y-%m-%d %H:%M:%S %j %a %b %Z %z'
date -d @1700000000; date -u -d @0; date -d '2024-02-29' +%A; date -d '2024-01-31 + 1 month' +%F
date -d '2024-03-05 07:08:09' '+%-d %_m %e %k %l %^a %p %P %U %V %W %G %g %C %u %w %D %r %R %c %F %h %s'
date -d '2024-01-15T10:30:00Z' -Iseconds; date -d '2024-01-15' -I; date -d '@86400' -R; date -d '2024-01-15 12:00' --rfc-3339=seconds
TZ=America/New_York date -d '2024-07-01 12:00 UTC' '+%F %T %Z %z'; TZ=Asia/Kolkata date -d @0 '+%F %T %Z %:z'
date -d 'Jan 15 2024' +%F; date -d '15 Jan 2024 10:00' '+%F %R'; date -d '12/25/2023' +%F
date -d garbage 2>/dev/null; echo "status $?"; date -d '2024-02-30' 2>/dev/null; echo "status $?"
d1=$(date -d yesterday +%F); d2=$(date -d '1 day ago' +%F); [ "$d1" = "$d2" ] && echo same-day
[ "$(date -d tomorrow +%s)" -gt "$(date +%s)" ] && echo later
sleep 0.1; echo "slept $?"; sleep 0.05 0.05s; sleep 1x 2>/dev/null; echo "status $?"; sleep 2>/dev/null; echo "status $?"
timeout 0.2 sleep 5; echo "status $?"; timeout 5 true; echo "status $?"; timeout 5 false; echo "status $?"
timeout --preserve-status 0.2 sleep 5; echo "status $?"; timeout 1x true 2>/dev/null; echo "status $?"
timeout 1 nosuchcmd 2>/dev/null; echo "status $?"
true; echo "true $?"; false; echo "false $?"
which sh >/dev/null; echo "which $?"; which nosuchcmd; echo "status $?"
getconf PAGESIZE; getconf PATH_MAX /; getconf NOSUCH 2>/dev/null; echo "status $?"
/bin/kill -l 9; /bin/kill -l TERM
now=$(date); [ "$(date -d "$now" +%s)" -le "$(date +%s)" ] && echo parsed-own-output
date -d "$(date -R)" +%Y >/dev/null && echo parsed-rfc; date -d '2024/01/15' +%F; date -d 'Mon Jan 15 10:30:00 2024' '+%F %T'
