# stdin: 2\n\n5\nfoo\n 3 \n+1\n
# valid and invalid choices, an empty line (menu again), then EOF: status 1 and a newline on stdout
{
  select fruit in apple banana cherry; do
    echo "fruit=[$fruit] REPLY=[$REPLY]"
  done
  echo "status $?"
} 2>&1
echo "after: fruit=[$fruit] REPLY=[$REPLY]"
