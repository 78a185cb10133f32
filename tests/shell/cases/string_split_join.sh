join_by() { local IFS="$1"; shift; echo "$*"; }
join_by , a b c
join_by ' - ' x y
s="one;two;three"
IFS=';' read -ra parts <<< "$s"
echo "${#parts[@]}: ${parts[2]}"
echo "$(IFS=+; echo "${parts[*]}")"
