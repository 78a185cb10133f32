f() { echo hi; }
declare -F f
declare -f f | head -1
declare -F | grep -c f
unset -f f
declare -F f || echo "gone"
