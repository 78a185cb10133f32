# realistic text pipelines: word frequency, CSV joins, reports
cat > story.txt <<'T'
The quick brown fox jumps over the lazy dog. The dog sleeps;
the fox runs! A quick fox, a lazy dog, and THE end.
T
tr -cs 'A-Za-z' '\n' < story.txt | tr 'A-Z' 'a-z' | sort | uniq -c | sort -rn | head -5
tr -s '[:space:]' '\n' < story.txt | grep -v '^$' | wc -l
cat > people.csv <<'T'
id,name,dept
3,carol,eng
1,alice,ops
2,bob,eng
4,dave,sales
T
cat > salaries.csv <<'T'
id,salary
1,5000
2,6100
3,7200
5,9999
T
tail -n +2 people.csv | sort -t, -k1,1 > p.sorted
tail -n +2 salaries.csv | sort -t, -k1,1 > s.sorted
join -t, p.sorted s.sorted
join -t, -a1 -e NONE -o 0,1.2,2.2 p.sorted s.sorted
join -t, -v2 p.sorted s.sorted
join -t, p.sorted s.sorted | sort -t, -k3,3 -k4,4nr | cut -d, -f2,4 | paste -sd';'
cut -d, -f3 people.csv | tail -n +2 | sort | uniq -c | sort -k1,1nr -k2
seq 1 200000 | sort -n | uniq -c | sort -rn | head -3
seq 1000 | paste - - - - | tail -2
seq 20 | shuf -n 20 --random-source=people.csv | sort -n | md5sum
printf 'b 2\na 1\nc 3\n' | sort -k2n | awk '{print $1}' | tac | tr -d '\n'; echo
printf '%s\n' one two three four | nl -ba -s') ' | column -t
printf 'k1 v1\nk2 v2\n' > kv; cut -d' ' -f1 kv | xargs -I{} grep {} kv | wc -l
seq -w 8 12 | rev | sort | head -2
echo "status $?"
