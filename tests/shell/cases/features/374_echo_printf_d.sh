echo "$(( $(printf '%d' 5) * 2 ))"
