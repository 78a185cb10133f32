f() { exit 3; }; (f); echo "rc=$?"
