echo "  indented" | sed 's/^ *//'
