echo /nonexistent/*.xyz
x="*.nomatch"; echo $x
shopt -s failglob
echo *.nomatch2 2>/dev/null
echo "status $?"
