echo before
if then
echo after
