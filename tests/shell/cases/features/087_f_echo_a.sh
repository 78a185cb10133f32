f() { echo a; }; type f
