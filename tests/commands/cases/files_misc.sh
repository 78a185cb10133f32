# help texts exist, bad options, and a realistic pipeline
for c in cat ls cp mv rm mkdir rmdir touch ln readlink realpath stat chmod du find basename dirname mktemp truncate; do
  $c --help > /dev/null; printf '%s %s ' "$c" "$?"
  $c --definitely-bogus > /dev/null 2>&1; echo "$?"
done
mkdir -p proj/src proj/docs && printf 'print(1)\n' > proj/src/a.py && printf 'print(2)\nprint(3)\n' > proj/src/b.py && printf '# doc\n' > proj/docs/r.md
find proj -name '*.py' | sort | while read -r f; do printf '%s %s\n' "$(basename "$f" .py)" "$(stat -c %s "$f")"; done
for f in $(find proj -type f | sort); do echo "$(dirname "$f") -> $(basename "$f")"; done
cp -r proj backup && rm -r proj/src && ls proj backup | cat
mv backup/src proj/ && ls -R proj
du -s proj | cut -f2
find proj -type f -exec cat {} + | sort
cd proj && realpath --relative-to=. src/a.py && readlink -f src/../docs/r.md | sed 's|.*/proj/|proj/|'
