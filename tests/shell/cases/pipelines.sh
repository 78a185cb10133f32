printf '3\n1\n2\n' | sort
printf 'b\na\nc\n' | sort -r | head -n 2
echo "one two three" | tr ' ' '\n' | wc -l
false | true; echo "status $?"
true | false; echo "status $?"
set -o pipefail
false | true; echo "pipefail status $?"
