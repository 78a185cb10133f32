f() { local -r L=1; L=2; echo "in f"; }; f; echo rc=$?
