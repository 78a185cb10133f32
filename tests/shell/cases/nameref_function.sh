setvar() { local -n target=$1; target="set by ref"; }
setvar myvar; echo "$myvar"
append() { local -n list=$1; list+=("$2"); }
items=(); append items a; append items b; echo "${items[@]}"
