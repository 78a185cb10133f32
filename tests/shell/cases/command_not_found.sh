nosuchcommand_abc
echo "status $?"
