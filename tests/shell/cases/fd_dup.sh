exec 3>out3
echo "to fd3" >&3
exec 3>&-
cat out3
{ echo out; echo err >&2; } 2>/dev/null
( echo x >&2 ) 2>&1 | cat
