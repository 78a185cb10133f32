# getopts sets OPTIND even when there is no option left (a new `local OPTIND` is empty until
# then), unsets OPTARG, and reads OPTIND as atoi does
parse() {
  local OPTIND
  while getopts "ab:" opt; do echo " $opt"; done
  shift $((OPTIND - 1))
  echo " OPTIND=$OPTIND rest: $*"
}
parse y z
parse
parse -- y
parse -a -b 1 q
OPTARG=zz; getopts a o x; echo "$? o=$o OPTIND=$OPTIND OPTARG=${OPTARG-unset}"
OPTIND=5; getopts a o x y; echo "$? o=$o OPTIND=$OPTIND"
OPTIND=-3; getopts a o x; echo "$? o=$o OPTIND=$OPTIND"
unset OPTIND; getopts a o y; echo "$? o=$o OPTIND=$OPTIND"
getopts a o -z 2>&1; echo "$? o=$o"
