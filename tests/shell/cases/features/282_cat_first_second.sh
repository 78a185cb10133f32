cat <<'A' <<'B'
first
A
second
B
