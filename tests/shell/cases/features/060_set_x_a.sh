set -- ${x:-"a b" c}; echo $#
