echo "${1-unset1}"
