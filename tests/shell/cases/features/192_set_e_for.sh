set -e; for i in 1 2; do [ $i = 1 ] || true; done; echo for-ok
