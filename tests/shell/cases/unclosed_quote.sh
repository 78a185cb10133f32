echo before
echo "unclosed
