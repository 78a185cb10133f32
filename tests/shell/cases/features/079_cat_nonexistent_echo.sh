cat < /nonexistent; echo "rc=$?"
