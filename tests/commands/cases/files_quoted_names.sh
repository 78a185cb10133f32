# A file name with a quote, a space and a newline in messages and listings, quoted as GNU
# quotes it in each place (stderr folded into stdout so the text is compared exactly)
export LC_ALL=C
n=$'it\'s a\nname'
cat "$n" 2>&1; echo "cat $?"
ls "$n" 2>&1; echo "ls $?"
rm "$n" 2>&1; echo "rm $?"
wc "$n" 2>&1; echo "wc $?"
head "$n" 2>&1; echo "head $?"
tail "$n" 2>&1; echo "tail $?"
for c in sort cut uniq nl tac fold expand paste md5sum base64 od stat du chmod touch; do
  case $c in cut) a=-f1 ;; chmod) a=644 ;; touch) a=-c ;; *) a= ;; esac
  $c $a "$n" 2>&1; echo "$c $?"
done
touch "$n" "a'b" 'a b' 'x:y'
wc -c "$n" "a'b" 'a b' 'x:y' 2>&1
ls -b; ls -Q; ls --quoting-style=shell-escape; ls --quoting-style=shell-always
rm -v "$n" "a'b" 'a b' 'x:y'
mkdir "$n"; cat "$n" 2>&1; head "$n" 2>&1; rm "$n" 2>&1; rmdir -v "$n"
head -n "$n" /dev/null 2>&1; echo "head -n $?"
sort -k "$n" /dev/null 2>&1; echo "sort -k $?"
mkdir -p "$n/x" 2>&1; rm -r "$n"
find "$n" 2>&1; echo "find $?"
