# FUNCNAME, BASH_SOURCE and BASH_LINENO describe the call stack (functions and source)
cat > lib.sh <<'LIB'
libf() {
  echo "libf: ${FUNCNAME[*]} | ${BASH_SOURCE[*]} | ${BASH_LINENO[*]}"
}
echo "sourced: ${BASH_SOURCE[*]} | ${BASH_LINENO[*]}"
libf
LIB
g() {
  echo "g: ${FUNCNAME[*]} | ${BASH_LINENO[*]} | $((BASH_LINENO))"
  . ./lib.sh
}
f() {
  g
}
echo "top: [${FUNCNAME[*]}] [${BASH_SOURCE[*]}] [${BASH_LINENO[*]}]"
f
. ./lib.sh
printf 'h() { nosuch_cmd_x; }\nh\n' > lib2.sh
. ./lib2.sh 2>&1 | sed 's/^[^:]*: line \([0-9]*\):/LINE \1:/'
