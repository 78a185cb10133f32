set -- a b c; echo "$@"; set -x; echo hi; set +x
