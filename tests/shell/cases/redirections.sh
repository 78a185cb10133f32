echo first > out.txt
echo second >> out.txt
cat out.txt
cat < out.txt | wc -l
echo err >&2 2>/dev/null
{ echo a; echo b >&2; } 2>&1 | sort
echo "to null" > /dev/null
ls nonexistent 2>/dev/null || echo "ls failed"
echo both &> both.txt; cat both.txt
