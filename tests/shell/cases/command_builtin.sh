echo() { builtin echo "wrapped: $*"; }
echo hi
command echo plain
unset -f echo
echo normal
command -v cd
type -t echo
