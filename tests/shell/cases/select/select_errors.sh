# a bad name or a readonly variable fails the select (status 1) and the script goes on
select 1x in a b; do echo "in"; done <<< "1"
echo "bad name status $?"
for 2y in a; do echo in; done
echo "bad for name status $?"
readonly ro=5
select ro in a b; do echo "in [$ro]"; done <<< "1"
echo "readonly status $? ro=$ro"
for ro in a b; do echo "in [$ro]"; done
echo "readonly for status $?"
select x in a b; do echo "in $x"; done <&-
echo "closed stdin status $?"
