echo "$(printf 'a\n\n\n')end"
