p=/a/b/c.txt
echo "$(basename $p) $(dirname $p) $(basename $p .txt)"
echo "${p##*/} ${p%/*}"
basename /a/b/
dirname file
