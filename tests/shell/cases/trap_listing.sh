# trap lists by signal number with SIG names; subshells show the parent's traps
trap 'echo usr1' USR1
trap 'echo test' TERM 2 EXIT
trap 'x' RETURN
trap
echo ---
trap -p INT EXIT
( trap )
echo "cmdsub: $(trap -p EXIT)"
trap - INT TERM
trap 0
trap RETURN
trap
trap 07 USR1; echo "numeric first=$?"
trap -1 EXIT 2>/dev/null; echo "dash one=$?"
trap 'echo <' EXIT
echo end
