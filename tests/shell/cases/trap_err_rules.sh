# ERR fires once per failing command (not again for for/case/{}); functions and subshells
# do not inherit it without set -E; a failing call fires it at the call site
trap 'echo "err line=$LINENO status=$?"' ERR
for y in 1 2; do
  false
done
{ false; false; }
f() {
  false
  true
}
g() {
  false
}
f
g
( false; echo sub )
(exit 4) | (exit 5)
false || echo handled
if false; then :; fi
{ echo grp; } > /nonexistent/dir/file 2>/dev/null
set -o errtrace
f
echo end
