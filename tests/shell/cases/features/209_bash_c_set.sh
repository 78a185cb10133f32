bash -c 'set -e; false; echo no'; echo rc=$?
