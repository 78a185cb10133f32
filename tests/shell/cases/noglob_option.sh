touch x1 x2
set -f
echo x*
set +f
echo x*
