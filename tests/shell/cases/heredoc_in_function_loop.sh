gen() {
  local name=$1
  cat <<EOF
[$name]
value=$(( ${#name} * 2 ))
EOF
}
for n in alpha be; do gen $n; done
while read -r l; do echo "> $l"; done <<EOF
first
second
EOF
