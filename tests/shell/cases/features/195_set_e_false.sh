set -e; false | true; echo pipe-ok
