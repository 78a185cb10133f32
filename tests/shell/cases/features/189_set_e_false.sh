set -e; (false); echo unreachable
