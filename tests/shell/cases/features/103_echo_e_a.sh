echo -e "a\tb" | expand 2>/dev/null | od -c | head -1 | wc -l
