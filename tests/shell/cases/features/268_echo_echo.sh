echo "$(echo '*')"
