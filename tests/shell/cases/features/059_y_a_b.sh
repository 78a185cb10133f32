y="a b"; set -- ${x:-$y}; echo $#
