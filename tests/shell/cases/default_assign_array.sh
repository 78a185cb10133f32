unset a
echo "${a[0]:-none}"
a=(); echo "[${a[@]:-empty}]"
b=(x); echo "[${b[@]:+set}]"
: "${c:=init}"; echo "$c"
