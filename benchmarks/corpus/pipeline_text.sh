# text pipeline: word frequency
for i in $(seq 1 2000); do echo "the quick brown fox $i jumps over the lazy dog"; done > words.txt
tr ' ' '\n' < words.txt | grep -v '^[0-9]' | sort | uniq -c | sort -rn | head -3
