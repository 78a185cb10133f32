set -eo pipefail
echo start
false | true
echo never
