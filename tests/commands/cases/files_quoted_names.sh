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
diff "$n" "a b" 2>&1; echo "diff $?"
echo hi | tee "/nonexistent/$n" "/nonexistent/a b" /nonexistent/c 2>&1; echo "tee $?"
for c in grep sed cmp comm split find tr mkdir rmdir; do
  case $c in grep) a=x ;; sed) a=p ;; cmp|comm) a=/dev/null ;; mkdir) a=-p ;; *) a= ;; esac
  if [ $c = tr ]; then tr a b < "$n" 2>&1; else $c $a "$n" "$n/x" 2>&1; fi; echo "$c $?"
done
cmp -n "$n" a b 2>&1; cmp -i "$n" a b 2>&1; cmp a b 0 "$n" 2>&1; echo "cmp $?"
