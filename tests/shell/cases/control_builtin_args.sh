# eval/exec/exit/return/break take -- and reject bad options; source looks in PATH first
eval -- 'echo eval dashdash'
eval -z 2>/dev/null; echo "eval -z=$?"
exec -- 3>&1
echo "to fd 3" >&3
f() { return -- 4; }; f; echo "return --=$?"
bash -c 'exec -a NAME bash -c "echo \$0"'
bash -c 'exec -z true' 2>/dev/null; echo "exec -z=$?"
mkdir -p dir
echo 'echo from path' > dir/lib
echo 'echo from cwd' > lib
PATH="dir:$PATH" . lib
bash -c 'for x in a b; do echo $x; continue 1 2; done; echo not reached' 2>/dev/null; echo "continue 1 2=$?"
bash -c 'exit 1 2; echo not reached' 2>/dev/null; echo "exit 1 2=$?"
exit -- 3
