# unset of a caller's local uncovers the variable below it; unset of the running
# function's own local keeps it local; unset of a VAR=x binding uncovers what it hides
unlocal() { unset "$@"; }
level2() { local hello=yy; echo level2=$hello; unlocal hello; echo level2=$hello; }
level1() {
  local hello=xx
  level2
  echo level1=$hello
  unlocal hello
  echo level1=$hello
  level2
}
hello=global
level1
own() { local hello=mine; unset hello; echo "own=${hello-unset}"; }
own
f() { echo "x=$x"; x=mutated; echo "x=$x"; unset x; echo "x=$x"; unset x; echo "x=${x-gone}"; }
x=global
x=temp f
echo "x=${x-gone}"
g() { unset y; echo "y=${y-gone}"; y=new; }
y=temp g
echo "y=${y-gone}"
unset %; echo status=$?
unset -n %; echo status=$?
unset -v %; echo status=$?
h-x() { echo hi; }
unset h-x
type h-x >/dev/null 2>&1; echo type=$?
