set -- a b c; echo "${@: -1}" "${!#}"
