# `command time` is GNU time (the `time` keyword is bash's): -f fields, -q, -o, statuses
command time -f '%x %C' false a b
command time -q -f 'status %x' sh -c 'exit 3'; echo "exit $?"
command time -o report.txt -f 'ran %C' true; cat report.txt
command time -a -o report.txt -f 'again %C' true; cat report.txt
command time -f 'tab\there%%' true
command time -f '%Q' true
command time; echo "usage $?"
