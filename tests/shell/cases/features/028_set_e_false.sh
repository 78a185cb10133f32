set -e; false && true; echo reached
