echo "a b c" | awk '{print NF}'
