# log grep/sed reports
cat > app.log <<'LOG'
2024-01-01 10:00:01 INFO start service=api
2024-01-01 10:00:02 ERROR db timeout service=db
2024-01-01 10:00:03 WARN slow query service=db
2024-01-01 10:01:00 ERROR disk full service=fs
2024-01-02 09:00:00 INFO stop service=api
LOG
grep -c ERROR app.log
grep ERROR app.log | sed -E 's/.*service=([a-z]+).*/\1/' | sort | uniq -c
grep -E '^2024-01-01' app.log | grep -v INFO | cut -d' ' -f3- 
sed -n '/WARN/,/ERROR/p' app.log
sed 's/^\([0-9-]*\) \([0-9:]*\)/[\2] \1/' app.log | head -2
grep -o 'service=[a-z]*' app.log | sort | uniq -c | sort -rn | head -1
grep -n -B1 'disk' app.log
mkdir -p src/sub && echo 'TODO: a' > src/a.py && echo 'nothing' > src/b.py && echo 'TODO: c' > src/sub/c.py
grep -rn TODO src | sort
grep -rl --include='*.py' TODO . | sort
grep -rL TODO src
sed -i 's/TODO/DONE/' src/a.py && cat src/a.py
for f in $(find src -name '*.py' | sort); do grep -l DONE "$f"; done
printf 'one\ntwo\n' | sed '1e echo injected'
printf 'echo run\n' | sed 'e'
