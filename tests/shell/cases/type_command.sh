type echo
type cd
type -t ls
type -t if
command -v echo
f() { :; }
type -t f
command -v nonexistent_xyz || echo "not found"
