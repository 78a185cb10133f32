typeset -r T=1; T=2; echo "T=$T"
