set -e; if ! false; then echo negation-ok; fi
