set -e
echo start
false || echo "handled"
if false; then echo no; fi
true && false || echo "also handled"
echo before
false
echo never
