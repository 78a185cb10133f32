let x=5/0; echo "rc=$?"
