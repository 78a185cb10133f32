# getopts starts afresh with a new `local OPTIND` (not inside the last call's -ab group), so
# `shift $((OPTIND-1))` works in functions called again and again
parse() {
  local OPTIND opt
  while getopts "ab:v" opt; do
    case $opt in
      a) echo " a" ;;
      b) echo " b=$OPTARG" ;;
      v) echo " v" ;;
    esac
  done
  shift $((OPTIND - 1))
  echo " rest: $*"
}
parse -ab x one
parse -va two
parse -v -- -a three
first() { local OPTIND=1; getopts ab o; echo "first=$o"; }
first -ab
first -ab
