f() { echo "${1:-none} ${2:-none}"; }; f; f a; f a b
