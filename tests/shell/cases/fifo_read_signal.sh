# a trap runs while read waits on a named pipe (or before it, had the signal come first); read
# then goes on and gets the line
mkfifo sync
trap 'echo got usr1' USR1
{ kill -USR1 $$; echo hi > sync; } &
read line < sync
echo "read=$? line=$line"
wait
