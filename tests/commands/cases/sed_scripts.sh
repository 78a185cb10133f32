# sed scripts from files and here-docs, in-place edits with backups
cat > notes.txt <<'TXT'
title: Notes
  - item one
  - item two

footer
TXT
cat > fix.sed <<'SED'
# strip list markers and number the items
/^  - /{
  s///
  =
}
/^$/d
$a\
-- end --
SED
sed -f fix.sed notes.txt
sed -n -e '/item/{' -e 's/item/ITEM/p' -e '}' notes.txt
sed -i.bak -e '1s/Notes/NOTES/' -e '$d' notes.txt && cat notes.txt && cat notes.txt.bak | wc -l
printf 'a b c\n' | sed 's/ /\
/g'
printf 'x\ny\n' | sed '1i\
header' | sed '$a footer'
printf 'keep\ndrop\nkeep\n' | sed -e '/drop/{' -e 'd' -e '}'
printf 'one\ntwo\nthree\n' | sed -n '2{p;q}'; echo "status $?"
printf 'v=1\n' | sed 's/\(v\)=\([0-9]\)/\2=\1/;s/^/[/;s/$/]/'
