f() { return 256; }; f; echo $?
