# awk: gawk's rand() sequence, its for-in order, and pipes that stream
awk 'BEGIN { srand(2024); for (i = 0; i < 8; i++) printf "%d ", int(rand() * 1000); print ""; print srand(9), rand() }'
awk 'BEGIN { print rand(); print srand() }'
printf 'to be or not to be that is the question\nwhether tis nobler in the mind to suffer\n' > words
awk '{ for (i = 1; i <= NF; i++) n[$i]++ } END { for (w in n) print w, n[w] }' words
awk '{ n = split($0, f); for (i in f) printf "%s:%s ", i, f[i]; print "" }' words
printf '3 x\n10 y\n7 z\n3 w\n' | awk '{ s[$1] = s[$1] $2 } END { for (k in s) print k, s[k] }'
awk 'BEGIN { "yes" | getline a; "yes" | getline b; print a b, close("yes") }'
awk 'BEGIN { while (("seq 5" | getline x) > 0) s += x; print s, NR }'
awk 'BEGIN { print "a"; print "b" | "cat"; print "c" }'
awk 'BEGIN { while (1) print "y" | "head -3" }' 2>/dev/null
echo "status $?"
