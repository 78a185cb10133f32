# realistic awk reports
cat > sales.csv <<'CSV'
region,rep,amount
north,ann,120.50
south,bob,80
north,cy,99.5
east,dee,300
south,ann,42.25
CSV
awk -F, 'NR > 1 { sum[$1] += $3; n[$1]++ } END { for (r in sum) printf "%-6s %8.2f %d\n", r, sum[r], n[r] }' sales.csv | sort
awk -F, 'NR > 1 && $3 > 90 { print $2 }' sales.csv | sort -u
awk -F, -v OFS='\t' 'NR == 1 { $1 = toupper($1) } { print $1, $3 }' sales.csv
awk 'BEGIN { FS = "," } NR > 1 { total += $3 } END { printf "total=%.2f avg=%.3f\n", total, total / (NR - 1) }' sales.csv
printf 'the cat\nthe dog and the cat\n' | awk '{ for (i = 1; i <= NF; i++) c[$i]++ } END { for (w in c) print c[w], w }' | sort -k1,1nr -k2
printf '%s\n' 1 2 3 4 5 6 7 8 9 10 | awk 'NR % 3 == 0 { printf "%s%s", sep, $0; sep = "," } END { print "" }'
printf 'k1=v1;k2=v2\n' | awk -F';' '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); print kv[2], kv[1] } }'
