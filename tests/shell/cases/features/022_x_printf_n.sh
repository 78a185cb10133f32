x=$(printf '\n\nlead'); echo "[$x]"
