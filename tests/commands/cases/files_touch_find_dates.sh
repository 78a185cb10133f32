# touch -d and find -newermt read dates exactly as date -d does (one parser): relative,
# weekday, @epoch and date(1)'s own output forms
export TZ=UTC
for d in 'next Thursday' '2 days ago' '@123' '@123.5' 'third friday' '2020/01/02' \
         'Wed Dec  2 17:49:55 UTC 2026' 'last week' '1 fortnight ago' 'next thursday 10:00' \
         'Jan 2 2020 +1 day' 'yesterday 12:30' '2020-01-02 03:04:05 +0200'; do
  touch -d "$d" f || echo "touch refused $d"
  t=$(date -d "$d" +%s) s=$(stat -c %Y f)
  [ $((s - t)) -ge -1 ] && [ $((s - t)) -le 1 ] && echo "touch -d '$d': same as date -d"
done
touch -d '@123.5' f; stat -c '%.9Y' f
touch -d 'Wed Dec  2 17:49:55 UTC 2026' f
find f -newermt 'Wed Dec  2 17:49:54 UTC 2026'; find f -newermt 'Wed Dec  2 17:49:55 UTC 2026'
find f -newermt '2026/12/01' ! -newermt 'third friday' -newermt '@1796233794' -print
touch -d 'not a date at all' f 2>&1; echo "touch $?"
