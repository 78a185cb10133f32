# rev (util-linux) reads each line as a C string: it ends at a NUL, the rest of that line is
# lost and the next line read on after it; what is left at the end is written unended
for s in 'lin\000e 1\n\nline 3\n' 'ab\000cd\nef\n' 'ab\000cd' '\000x\ny\n' 'a\000\n' 'abc\000' '\n\000\n' 'ab\000c\000d\nz' 'a\000\nb\n' 'x\ny\n'; do printf "%-22s" "$s"; printf "$s" | rev | od -c | head -2 | tr '\n' ' '; echo; done
printf 'ab\000c\n' > f1; printf 'de\nf\n' > f2; rev f1 f2 | od -c
