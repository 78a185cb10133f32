set -- "$@" new; echo $# "$1"
