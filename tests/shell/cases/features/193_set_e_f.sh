set -e; f() { return 1; }; f || echo caught; echo after
