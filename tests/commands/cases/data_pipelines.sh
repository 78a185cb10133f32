# realistic pipelines mixing the data commands with the rest of the toolbox
mkdir -p proj/src proj/docs
for i in 1 2 3; do printf 'def f%s():\n    return %s\n' $i $i > proj/src/m$i.py; done
printf '# Title\n\nSome text.\n' > proj/docs/readme.md
find proj -type f | sort | xargs md5sum > manifest.txt; cat manifest.txt
md5sum -c manifest.txt | sort
sed -i 's/return 2/return 22/' proj/src/m2.py; md5sum -c --quiet manifest.txt; echo "status $?"
find proj -name '*.py' | sort | tar -czf py.tgz -T - 2>/dev/null || tar -czf py.tgz $(find proj -name '*.py' | sort)
tar -tzf py.tgz | sort
cp -r proj proj.orig; sed -i 's/Some text/Other text/' proj/docs/readme.md; echo '# new' > proj/src/new.py
diff -ruN proj.orig proj | grep -v '^[-+][-+][-+] ' > change.diff; cat change.diff; wc -l < change.diff
diff -ruN proj.orig proj > full.diff; cd proj.orig && patch -p1 -s < ../full.diff && cd .. && diff -r proj proj.orig && echo patched-equal
printf '{"id":%d,"name":"item%d","price":%d.5}\n' 1 1 10 2 2 20 3 3 30 > items.jsonl
jq -s 'map(.price) | add' items.jsonl; jq -r '[.id, .name] | @tsv' items.jsonl | sort -r
jq -c 'select(.price > 15)' items.jsonl | wc -l; jq -r '.name' items.jsonl | tr a-z A-Z | paste -sd,
jq -n '[inputs | {(.name): .price}] | add' items.jsonl -c
cat items.jsonl | base64 | base64 -d | sha256sum | cut -c1-16; sha256sum items.jsonl | cut -c1-16
gzip -c items.jsonl | gunzip | jq -c '.id' | tr '\n' ' '; echo
seq 1 1000 | gzip -9 | zcat | awk '{s+=$1} END {print s}'
printf 'line1\nline2\n' | od -c | head -1; printf 'AB' | xxd -p; printf 'AB' | hexdump -C | head -1
date -d @0 -u '+%Y' | cat; TZ=UTC date -d '2024-02-29 12:00' +%j
for f in proj/src/*.py; do printf '%s %s\n' "$(basename $f)" "$(wc -l < $f)"; done | sort -k2n
timeout 5 sh -c 'echo inside; exit 3'; echo "status $?"
env -i PATH=/usr/bin:/bin sh -c 'echo $PATH'; env -i A=1 sh -c 'echo $A'
