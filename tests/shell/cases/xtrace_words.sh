# xtrace: for shows its words as written, assignments one by one, declare arguments don't crash
exec 2>&1
set -x
for x in a "b c"; do :; done
x=1 x=2
f() {
  local PS4='- '
  echo "in f"
}
f
a=(1)
declare a+=(2) >/dev/null
set +x
echo "${a[*]}"
