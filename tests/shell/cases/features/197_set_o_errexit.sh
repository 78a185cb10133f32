set -o errexit; set -o | grep errexit
