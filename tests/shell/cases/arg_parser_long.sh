usage() { echo "usage: tool [-v] [--out FILE] [--level=N] args..."; }
verbose=0 out=- level=1 args=()
set -- -v --out report.txt --level=3 a b -- -c
while (( $# )); do
  case $1 in
    -v|--verbose) verbose=1 ;;
    --out) out=$2; shift ;;
    --level=*) level=${1#--level=} ;;
    -h|--help) usage; exit 0 ;;
    --) shift; args+=("$@"); break ;;
    -*) echo "unknown $1"; exit 2 ;;
    *) args+=("$1") ;;
  esac
  shift
done
echo "verbose=$verbose out=$out level=$level args=${args[*]} n=${#args[@]}"
