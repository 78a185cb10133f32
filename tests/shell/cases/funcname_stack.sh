a() { echo "${FUNCNAME[0]} <- ${FUNCNAME[1]}"; b; }
b() { echo "${FUNCNAME[*]}"; }
a
