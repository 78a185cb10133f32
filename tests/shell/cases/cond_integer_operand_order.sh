# [[ A -op B ]]: both words are expanded before either is evaluated as arithmetic, so an
# assignment or x++ on the left does not change what $x on the right gave; a lookup's message
# (bad array subscript) comes before the evaluation's error
exec 2>&1
x=1; [[ x++ -eq $x ]]; echo "eq $? x=$x"
x=1; [[ x++ -lt $x ]]; echo "lt $? x=$x"
x=1; if [[ x=5 -eq $x ]]; then echo same; else echo "differ x=$x"; fi
a=(1 2 3); [[ "q w" -eq ${a[-5]} ]]; echo "status $?"
for i in 1 2; do x=$i; [[ x+=10 -gt $x ]] && echo "gt x=$x"; done
