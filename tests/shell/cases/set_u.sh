set -u
x=1
echo $x
echo ${y:-default}
echo $y
echo never
