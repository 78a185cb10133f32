f() { [[ $# -eq 0 ]] && { echo "usage"; return 1; }; echo "ok $1"; }; f; f x
