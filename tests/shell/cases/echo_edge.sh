echo -n
echo -- -n
echo -e "a\\tb"
echo -ne "x\n"
echo "-e"
echo -e 'stop\cignored'
echo a\
b
