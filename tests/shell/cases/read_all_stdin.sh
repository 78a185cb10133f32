# stdin: line one\nline two\nline three\n
count=0
while IFS= read -r line; do
  count=$((count+1))
  echo "$count: ${line^^}"
done
echo "total $count"
