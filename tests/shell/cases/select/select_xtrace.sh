# set -x shows the select head once, as written
{
  v="p q"
  set -x
  select x in a "b c" $v; do echo "got $x"; break; done <<< "3"
  set -- one two
  select x; do echo "got $x"; break; done <<< "1"
  set +x
} 2>&1
