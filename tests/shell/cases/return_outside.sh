return 2>/dev/null; echo "status $?"
