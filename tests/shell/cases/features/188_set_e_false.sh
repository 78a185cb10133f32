(set -e; false; echo no); echo "sub rc=$?"
