# tar -X/--exclude-from and -T/--files-from (with --null): pattern and name lists from files and stdin
touch foo bar baz; mkdir d; touch d/one d/two; tar cf t.tar foo bar baz d
echo foo > foo.exclude; echo bar > bar.exclude; printf 'foo\n\nba*\n' > all.exclude
tar tf t.tar -X foo.exclude; tar tf t.tar -X foo.exclude -X bar.exclude; tar tf t.tar --exclude-from=all.exclude
echo d/one > one.exclude; tar tf t.tar d -X one.exclude; tar tf t.tar foo bar -X foo.exclude
rm foo bar baz; tar xf t.tar foo bar -X foo.exclude; ls; rm -f bar
printf 'foo\0d/two\0' > l0; tar tf t.tar --null -X l0
printf 'baz\nd/one\n' > names; tar cf u.tar -T names; tar tf u.tar; printf 'baz\0d\0' | tar cf - --null -T - | tar tf -
printf 'd\n' | tar cf - foo.exclude -T - | tar tf -; tar tf t.tar -T names
tar tf t.tar -X nosuch; echo "status $?"; tar cf v.tar -T nosuch; echo "status $?"
