set -e; while false; do :; done; echo loop-ok
