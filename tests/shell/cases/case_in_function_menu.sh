handle() {
  case "$1" in
    start|run) echo "starting" ;;
    stop) echo "stopping" ;;
    "") echo "empty" ;;
    *) echo "unknown: $1"; return 1 ;;
  esac
}
handle start; handle stop; handle ""; handle foo || echo "failed $?"
