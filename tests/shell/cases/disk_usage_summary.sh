mkdir -p proj/{src,docs,build}
printf '%0500d' 0 > proj/src/a.c
printf '%01500d' 0 > proj/build/out.bin
printf '%0100d' 0 > proj/docs/readme
for d in proj/*/; do
  total=0
  for f in "$d"*; do total=$(( total + $(wc -c < "$f") )); done
  printf '%-14s %6d\n' "$d" "$total"
done
