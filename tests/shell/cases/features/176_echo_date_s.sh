echo "$(( $(date +%s) > 0 ))"
