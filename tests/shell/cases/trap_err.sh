trap 'echo "error on line $LINENO"' ERR
true
false
echo after
