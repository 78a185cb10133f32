set -x
a=1
echo "value $a"
set +x
echo quiet
