vercmp() {
  local IFS=.
  local -a a=($1) b=($2)
  local i
  for ((i=0; i<3; i++)); do
    (( ${a[i]:-0} > ${b[i]:-0} )) && { echo ">"; return; }
    (( ${a[i]:-0} < ${b[i]:-0} )) && { echo "<"; return; }
  done
  echo "="
}
vercmp 1.2.3 1.2.10
vercmp 2.0 1.9.9
vercmp 1.0.0 1
