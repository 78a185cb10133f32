f() { echo out1; echo err1 >&2; echo out2; }
f 2>&1 | cat
f 2>/dev/null
{ f; } 2>&1 >/dev/null | cat
