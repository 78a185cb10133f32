now="$(echo 2024-01-01)"
echo "date: $now"
count=$(printf 'a\nb\nc\n' | wc -l)
echo "lines: $count"
echo "nested: $(echo "inner $(echo deeper)")"
echo `echo backticks`
x=$(echo "trailing newlines


")
echo "[$x]"
