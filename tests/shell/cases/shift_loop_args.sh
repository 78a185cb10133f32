parse() {
  while (( $# )); do
    case $1 in
      -v|--verbose) echo verbose ;;
      -o) echo "output=$2"; shift ;;
      --name=*) echo "name=${1#*=}" ;;
      --) shift; echo "rest: $*"; break ;;
      *) echo "arg: $1" ;;
    esac
    shift
  done
}
parse -v -o file --name=x pos -- a b
