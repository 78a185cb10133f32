set -o pipefail
true | false | true; echo $?
(exit 2) | (exit 3) | true; echo $?
true | true; echo $?
set +o pipefail
(exit 2) | true; echo $?
