echo "$(echo "$(echo "a   b")")"
x="$(printf '%s' "spaced   out")"; echo "[$x]"
y=$(echo $(echo "  trimmed  ")); echo "[$y]"
echo "outer $(echo "inner 'single' \"double\"")"
