show() { echo "$# args"; for a in "$@"; do echo " <$a>"; done; }
show "a b" c "" d
show $(echo "x y")
args=("one two" three)
show "${args[@]}"
show "${args[*]}"
