# a redirection's file is brace-expanded, split and globbed, and must be one word
mkdir rd && cd rd
touch one-bar
echo hi > one-*; cat one-bar
echo escaped > one-\*; cat one-\*
echo braced > {x,}; cat x
file='foo bar'
echo hi > $file; echo "split: $?"
echo hi > "$file"; cat "$file"
empty=
echo hi > $empty; echo "empty: $?"
echo hi > {a,b}; echo "two words: $?"
echo fd-one 1>&out.txt; cat out.txt
shopt -s failglob
echo hi > zz-*-xx
echo "failglob: $?"
