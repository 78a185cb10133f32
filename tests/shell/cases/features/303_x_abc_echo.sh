x=abc; echo "${x: 1}" "${x:1:-1}"
