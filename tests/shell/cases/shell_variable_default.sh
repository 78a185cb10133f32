# a new bash sets SHELL (unexported) when its environment has none
unset SHELL
bash -c 'declare -p SHELL'
SHELL=/x bash -c 'declare -p SHELL'
