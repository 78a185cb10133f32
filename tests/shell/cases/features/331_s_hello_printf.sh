s=hello; printf '%s\n' "${s:1:2}" "${#s}"
