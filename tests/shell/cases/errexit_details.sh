# errexit: a failing && list inside { } or if does not exit; ! does not shield a function
# that turns errexit on itself
set -e
{ test no = yes && echo hi; }
echo "after group status=$?"
if true; then false && true; fi
echo after-if
for i in 1; do false && true; done
echo after-for
set +e
f() { set -e; false; echo "not reached"; }
! f
echo "not reached either"
