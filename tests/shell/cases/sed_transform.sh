printf 'name=foo\nversion=1.0\n' > meta
sed 's/=/: /' meta
sed -n '2p' meta
sed -e 's/foo/bar/' -e 's/1\.0/2.0/' meta
echo "hello world" | sed 's/\(hello\) \(world\)/\2 \1/'
