# One reader of sizes with suffixes (gnulib xstrtoumax): each tool's own suffix letters
head -c 2000000 /dev/zero > z; printf 'abcdefghij' > f; printf 'abcdefghik' > g
for s in 1 1b 1k 1K 1m 1M 1KB 1kB 1KiB 1MB 1KD 1c 1w 1D 1Ki 1KBx 0x10 ' 5'; do
  printf '%s: ' "$s"; head -c "$s" z 2>&1 | wc -c
done
for s in 1m 1K 1KB 2KiB 1b 1e; do truncate -s "$s" t 2>&1 && stat -c "$s %s" t; done
for s in 5 5B 1kB 1K; do cmp -s -n "$s" f g 2>/dev/null; echo "cmp -n $s: $?"; done
for s in 1KB 1k 1m 1p; do du -B "$s" -s z 2>/dev/null | cut -f1; echo "du -B $s: $?"; done
od -A d -j 0x2 -N 010 f; od -A d -j 1b f 2>&1; echo "od $?"
split -l 1k f 2>&1; echo "split $?"; uniq -f 1k f 2>&1; echo "uniq $?"
