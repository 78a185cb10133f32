# VAR=x cmd: bindings last for the command, see the ones before them, and are not the frame
# `local` writes to; unset removes only the temporary binding
f() {
  tmp1= local x=x
  tmp2= eval 'local y=y'
  local z=z
  IFS=: read a b <<< "1:2"
  echo "x=$x y=$y a=$a b=$b"
  z=Z unset z
  echo "z=$z"
}
f
x=42
x=tmp unset x
echo "x=$x"
x=5
x=1 eval 'x=2'
echo "x=$x"
FOO=foo BAR="[$FOO]" printenv BAR
readonly r=1
r=2 echo "readonly temp ran" 2>/dev/null
FOO=bar eval 'echo "in eval FOO=$FOO"'
echo "after FOO=$FOO"
set -o posix
keep=yes eval 'echo "posix eval keep=$keep"'
echo "posix after keep=$keep"
printenv keep
