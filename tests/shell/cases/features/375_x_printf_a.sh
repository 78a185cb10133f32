x=$(printf 'a b'); set -- $x; echo $#
