x=global
f() { local x; echo "[${x-unset-local}]"; x=l; unset x; echo "[${x-after-unset}]"; }
f
echo "$x"
