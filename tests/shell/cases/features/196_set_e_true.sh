set -e; ! true; echo bang-ok
