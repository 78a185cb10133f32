echo "HELLO" | tr 'A-Z' 'a-z'
