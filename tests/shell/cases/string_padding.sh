pad() { printf '%*s' "$1" "$2"; }
lpad() { printf '%-*s|' "$1" "$2"; }
pad 8 right; echo "|"
lpad 8 left; echo
printf -v line '%*s' 20 ''; echo "${line// /-}"
s=abc; while (( ${#s} < 6 )); do s="0$s"; done; echo $s
