f() { echo in f; exit 4; echo no; }
f
echo never
