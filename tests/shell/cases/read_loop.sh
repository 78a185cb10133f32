# stdin: alice 30\nbob 25\ncarol 35\n
while read -r name age; do
  echo "$name is $age"
done
