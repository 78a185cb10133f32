eval 'f() { echo evalfunc; }'; f
