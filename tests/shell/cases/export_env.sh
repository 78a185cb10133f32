export GREETING=hello
bash -c 'echo "child sees $GREETING"'
LOCALV=1; bash -c 'echo "child sees [${LOCALV-}]"'
VAR=temp bash -c 'echo "temp: $VAR"'
echo "after: [${VAR-}]"
env | grep -c '^GREETING=hello$'
export -n GREETING; bash -c 'echo "[${GREETING-}]"'
