jobs_file=queue.txt
printf 'job1 ok\njob2 fail\njob3 ok\njob4 fail\n' > $jobs_file
failed=()
process() { [[ $2 == ok ]]; }
while read -r id state; do
  if process "$id" "$state"; then echo "$id done"; else failed+=("$id"); fi
done < $jobs_file
echo "failed: ${#failed[@]} (${failed[*]})"
(( ${#failed[@]} == 0 )) || exit 3
