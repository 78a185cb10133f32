# cp --parents: the source's whole name under the directory, missing directories made with
# their source's mode less the umask (-p: as it is), -v naming each one as GNU cp does
mkdir -p foo/bar/baz && touch foo/bar/baz/file && chmod 750 foo/bar && mkdir dir && umask 022
cp --parents foo/bar/baz/file dir; echo "rc=$?"; stat -c '%a %n' dir/foo dir/foo/bar dir/foo/bar/baz dir/foo/bar/baz/file
cp --parents foo/bar/baz/file nodir; echo "rc=$?"; cp --parents -t dir foo/bar/baz/file; echo "rc=$?"
mkdir d3; cp -pv --parents foo/bar/baz/file d3; stat -c '%a %n' d3/foo/bar; touch x; cp --parents -v x dir
touch foo2; cp --parents foo/bar/baz/file foo2; echo rc=$?; touch dir/foox; mkdir -p foox/a; touch foox/a/f; cp --parents foox/a/f dir; echo rc=$?
cp --parents foo/bar dir; echo rc=$?; cp -r --parents foo/bar dir/ ; echo rc=$?; find dir | sort
cp --parents -T foo/bar/baz/file dir; echo rc=$?; cp --parents x foo2 dir/x 2>&1; echo rc=$?
(umask 077; mkdir d4; cp --parents foo/bar/baz/file d4; stat -c '%a %n' d4/foo d4/foo/bar d4/foo/bar/baz)
cp --parents foo//bar/./baz/file d5 2>&1; mkdir d5; cp -v --parents foo//bar/./baz/file d5; find d5 | sort
