set -e
cleanup() { echo "cleanup (rc=$?)"; }
trap cleanup EXIT
step() { echo "step $1"; [[ $1 != 3 ]]; }
step 1
step 2
step 3
step 4
