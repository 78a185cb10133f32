time true 2>/dev/null
echo "after time"
