# cp -d, -a and --preserve=links keep hard links between the sources as hard links in the copies
touch foo; ln foo bar; mkdir baz; cp -d foo bar baz; test baz/foo -ef baz/bar && echo linked
mkdir q; cp foo bar q; test q/foo -ef q/bar || echo "not linked without -d"
mkdir -p t/a t/b; echo x > t/a/f; ln t/a/f t/b/g; ln -s f t/a/s; cp -a t u; test u/a/f -ef u/b/g && echo "-a linked"
ls -l u/a/f | cut -c1-12; readlink u/a/s; cp -r t v; test v/a/f -ef v/b/g || echo "-r not linked"
mkdir w; cp --preserve=links foo bar w; test w/foo -ef w/bar && echo "--preserve=links linked"
mkdir x; cp -d --no-preserve=links foo bar x; test x/foo -ef x/bar || echo "--no-preserve=links not linked"
echo old > y1; mkdir y; echo old > y/bar; cp -d foo bar y; test y/foo -ef y/bar && echo "replaced and linked"; cat y/bar
cp -dv foo bar baz
