a=1; unset a; echo "[${a-unset}]"
arr=(1 2 3); unset 'arr[1]'; echo "${arr[@]} ${!arr[@]}"
unset arr; echo "[${arr[@]-gone}]"
f() { :; }; unset -f f; type f 2>/dev/null || echo "no f"
