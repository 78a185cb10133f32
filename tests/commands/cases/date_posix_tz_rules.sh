# date -d @N and local times in a POSIX TZ with daylight saving rules (glibc's reading:
# Mm.w.d, Jn and n dates, /time, default rules and offsets); times with a zone after them
# (3:4:5Z, +0600, UTC+3, +6); a local time that comes twice is the one glibc's mktime reaches
# first, one DST skips is an invalid date
Z=EET-2EEST,M3.5.0/3,M10.5.0/4
for t in 1288486799 1288486801 1269737999 1269738001 1288483200 1288486800 0 1700000000; do TZ=$Z date -d @$t; TZ=$Z date -d @$t '+%F %T %Z %z %s'; done
for d in '2010-10-31 03:30' '2010-07-01 12:00' '2010-12-01 12:00' '2010-10-31 02:30' '2010-10-31 04:30' '2010-03-28 03:30'; do TZ=$Z date -d "$d" '+%F %T %Z %z %s' 2>/dev/null || echo "invalid: $d"; done
for Z in EST5EDT 'EST5EDT,M3.2.0,M11.1.0' 'CET-1CEST,M3.5.0,M10.5.0/3' 'AEST-10AEDT,M10.1.0,M4.1.0/3' 'NZST-12NZDT,M9.5.0,M4.1.0/3' '<+03>-3' 'XXX3YYY,J60/1,J300/1' 'XXX3YYY2,59/1,299' 'PST8PDT,M3.2.0/-1,M11.1.0/26' GMT0BST,M3.5.0/1,M10.5.0/2; do
  for t in 1700000000 1690000000 1678604400 1678611600 1699165800 1616893199 1616893201 1635638401 1635642001; do TZ="$Z" date -d @$t '+%F %T %Z %z'; done
done
for Z in Europe/Athens America/New_York Australia/Sydney; do
  for d in '2010-10-31 03:30' '2010-03-28 03:30' '2010-11-07 01:30' '2010-03-14 02:30' '2010-04-04 02:30' '2010-10-03 02:30' '2010-03-14 02:30 +1 hour' '2010-10-31 03:30 -1 hour'; do
    TZ=$Z date -d "$d" '+%F %T %Z' 2>/dev/null || echo "invalid: $d"
  done
done
for d in '1999-1-2 3:4:5Z' '1999-1-2 3:4:5 +0600' '1999-1-2 3:4:5 -0600' '1999-1-2 3:4:5 EST' '1999-1-2 3:4:5 UTC+3' '1999-1-2 3:4:5 +6' '1999-1-2 3:4:5 -130' '1999-1-2 3:4:5 +06:30' '1999-1-2 3:4:5 UTC-130' '1999-1-2 3:4:5 EST+1' '1999-1-2 3:4 pm' '1999-1-2 3:4:5.25Z' '1999-1-2 13:4:5 +1'; do TZ=UTC0 date -d "$d"; done
TZ=GMT0BST,M3.5.0/1,M10.5.0/2 date -d '2021-03-28 00:59:59 +0000'; TZ=GMT0BST,M3.5.0/1,M10.5.0/2 date -d '2021-03-28 01:00:01 +0000'
TZ=GMT0BST,M3.5.0/1,M10.5.0/2 date -d '2021-10-31 00:00:01 +0000'; TZ=GMT0BST,M3.5.0/1,M10.5.0/2 date -d '2021-10-31 01:00:01 +0000'
TZ=CET-1CEST,M3.5.0,M10.5.0/3 printf '%(%F %T %Z)T\n' 1700000000 1690000000
TZ=America/New_York touch -t 201003140230 tt 2>/dev/null; echo "touch $?"; TZ=UTC date -d '0001-01-01 00:00' '+%F|%Y|%G|%_Y|%-Y'
