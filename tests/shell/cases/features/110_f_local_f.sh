f() { local; }; f; echo rc=$?
