report() {
  local var
  for var in "$@"; do
    if [[ -v $var ]]; then printf '%s is set (%d chars)\n' "$var" "${#var}"
    else printf '%s is unset\n' "$var"; fi
  done
}
MYVAR=hello; export MYVAR
unset NOTHERE
report MYVAR NOTHERE PATH
