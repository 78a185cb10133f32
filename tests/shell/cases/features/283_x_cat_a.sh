x=$(cat <<'E'
a "quoted" $thing
E
); echo "$x"
