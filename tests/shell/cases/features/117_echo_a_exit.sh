(echo a; exit 3) | cat; echo "${PIPESTATUS[@]}"
