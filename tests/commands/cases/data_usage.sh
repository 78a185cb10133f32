# bad options and operands: the exit status of each real tool
for cmd in md5sum sha256sum b2sum cksum base64 base32 od hexdump cmp diff patch gzip date sleep uname id whoami nproc printenv getconf timeout env; do
  $cmd --no-such-option </dev/null >/dev/null 2>&1; echo "$cmd $?"
done
tar --no-such-option 2>/dev/null; echo "tar $?"
zip -q z.zip nosuch >/dev/null 2>&1; echo "zip $?"
unzip -q nosuch.zip >/dev/null 2>&1; echo "unzip $?"
jq --no-such-option . </dev/null >/dev/null 2>&1; echo "jq $?"
md5sum --quiet /dev/null 2>/dev/null; echo "md5sum --quiet $?"
sleep 2>/dev/null; echo "sleep $?"; date -d 2024-13-45 2>/dev/null; echo "date $?"; od -t q </dev/null 2>/dev/null; echo "od $?"
base64 -d a b 2>/dev/null; echo "base64 $?"; id nosuchuser 2>/dev/null; echo "id $?"
cmp 2>/dev/null; echo "cmp $?"; diff 2>/dev/null; echo "diff $?"; diff a 2>/dev/null; echo "diff $?"
