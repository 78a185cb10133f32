# awk programs from files, multiple inputs, getline and uninitialized values
cat > stats.awk <<'AWK'
#!/usr/bin/awk -f
function max(a, b) { return a > b ? a : b }
FNR == 1 { files++ }
{ total += $2; biggest = max(biggest, $2); count[FILENAME]++ }
END {
    printf "files=%d lines=%d total=%d max=%d\n", files, NR, total, biggest
    for (f in count) print f "=" count[f] | "sort"
}
AWK
printf 'a 3\nb 9\n' > one.txt
printf 'c 4\n' > two.txt
awk -f stats.awk one.txt two.txt
awk 'NR == FNR { seen[$1]; next } !($1 in seen)' one.txt <(printf 'a\nz\nb\ny\n')
awk '{ while ((getline line < "two.txt") > 0) print $1, line; close("two.txt") }' one.txt
awk 'BEGIN { printf "[%s][%d]\n", unset, unset; if (!length(unset)) print "empty" }'
printf '3\n1\n2\n' | awk '{ a[NR] = $1 } END { n = NR; for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }; for (i = 1; i <= n; i++) printf "%s%s", a[i], (i < n ? " " : "\n") }'
echo "5 apples" | awk '{ $1 *= 2; print; print NF }'
awk 'BEGIN { exit 3 }'; echo "status $?"
