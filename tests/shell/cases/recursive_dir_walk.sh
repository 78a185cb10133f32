mkdir -p tree/a/b tree/c
touch tree/a/f1 tree/a/b/f2 tree/c/f3 tree/top
walk() {
  local d=$1 indent=$2 e
  for e in "$d"/*; do
    echo "$indent${e##*/}"
    [[ -d $e ]] && walk "$e" "$indent  "
  done
}
walk tree ""
