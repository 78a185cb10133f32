( exit 3 ); echo "sub $?"
( echo in; exit 0; echo never ); echo "after"
x=$( exit 4 ); echo "cmdsub $?"
{ echo group; } ; echo "$?"
( cd /; pwd ); pwd | grep -c /
