[[ -o errexit ]] || echo no-errexit; set -e; [[ -o errexit ]] && echo errexit-on
