trap 'echo "exit with $?"' EXIT
f() { return 3; }
f
exit 5
