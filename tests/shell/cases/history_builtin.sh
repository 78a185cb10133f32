# history in a script: nothing recorded by itself; -s adds, N/-d/-c/-w/-r work, bad args fail
history
history -s 'echo one'
history -s two
history -s three
history
history 2
history -d 1
history
history -w hist.txt
cat hist.txt
history -c
history
history -r hist.txt
history
history -d 99 2>/dev/null; echo "out of range=$?"
history abc 2>/dev/null; echo "not a number=$?"
history -z 2>/dev/null; echo "bad option=$?"
