# ${!:...} is $! with an operator, not an indirect expansion
echo "[${!:-none}] [${!:+set}]"
true & wait
echo "[${!:+set}]"
[ "${!:-none}" != none ] && echo has-pid
