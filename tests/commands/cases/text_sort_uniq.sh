printf 'banana\napple\nCherry\n  date\napple\n10\n9\n-3\n1.5\n\n' > w
sort w; sort -r w; sort -f w; sort -n w; sort -rn w; sort -u w; sort -fu w; sort -b w
printf 'bob,25,NY\nalice,30,LA\ncarol,25,SF\ndave,40,NY\n' > t
sort -t, -k2,2n t; sort -t, -k2,2nr -k1,1 t; sort -t, -k3,3 -k2n t; sort -t, -k2,2 -u t
sort -t, -s -k3,3 t; sort -k1.2,1.3 t
printf '1K\n2M\n1024\n3G\n' | sort -h
printf 'v1.10\nv1.9\nv1.9a\n' | sort -V
printf 'Mar\nJan\nFeb\n' | sort -M
printf '1e3\n5\n-inf\n' | sort -g
printf 'a\nb\n' | sort -c; echo "sorted $?"
printf 'b\na\n' | sort -c 2>/dev/null; echo "unsorted $?"
printf 'b\na\n' | sort -C; echo "quiet $?"
sort -o w w; cat w
sort nope 2>/dev/null; echo "missing $?"
sort -k0 w 2>/dev/null; echo "badkey $?"
printf 'a\na\nb\nB\nb\nc\n' > u
uniq u; uniq -c u; uniq -d u; uniq -u u; uniq -D u; uniq -i u; uniq -ic u
printf 'x 1 a\ny 1 a\nz 2 a\n' | uniq -f 1 -c
printf 'aa1\nab1\nba2\n' | uniq -w 1; printf 'aa1\nba1\n' | uniq -s 1
uniq --group u; uniq --all-repeated=separate u
