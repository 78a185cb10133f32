a=`echo hello`
echo "$a"
b=`echo \`echo nested\``
echo "$b"
echo "sum: `expr 2 + 3 2>/dev/null || echo 5`"
