cmds=("echo one" "echo two | tr a-z A-Z")
for c in "${cmds[@]}"; do eval "$c"; done
eval 'for i in 1 2; do echo "e$i"; done'
v='$HOME'; eval "echo \"$v\"" | grep -c /
eval "x=(1 2 3)"; echo ${#x[@]}
