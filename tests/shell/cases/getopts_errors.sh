f() {
  local OPTIND=1 o
  while getopts ":ab:" o; do
    case $o in
      a) echo a;;
      b) echo "b=$OPTARG";;
      :) echo "missing arg for $OPTARG";;
      \?) echo "unknown $OPTARG";;
    esac
  done
}
f -a -x -b
f -ab foo
