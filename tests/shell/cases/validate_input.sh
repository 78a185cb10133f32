validate() {
  local v=$1
  if [[ -z $v ]]; then echo "empty"; return 1; fi
  if [[ ! $v =~ ^[0-9]+$ ]]; then echo "not a number: $v"; return 2; fi
  if (( v < 1 || v > 100 )); then echo "out of range: $v"; return 3; fi
  echo "ok: $v"
}
for x in "" abc 0 50 101; do validate "$x"; echo "rc=$?"; done
