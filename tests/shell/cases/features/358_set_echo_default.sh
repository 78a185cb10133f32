set --; echo "${@:-default}"; set -- a; echo "${@:-default}"
