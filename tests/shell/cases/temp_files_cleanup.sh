tmpdir=work_tmp
mkdir -p "$tmpdir"
cleanup() { rm -rf "$tmpdir"; echo "cleaned"; }
trap cleanup EXIT
for i in 1 2 3; do echo "data $i" > "$tmpdir/file$i"; done
cat "$tmpdir"/file*
ls "$tmpdir" | wc -l
