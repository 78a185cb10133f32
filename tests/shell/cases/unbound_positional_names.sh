# bash names an unset positional parameter "$1" when it is written unbraced, "1" braced
( set -u; echo $1 ) 2>&1 | sed 's/^.*line [0-9]*: //'
( set -u; echo ${1} ) 2>&1 | sed 's/^.*line [0-9]*: //'
( set -u; f() { echo "$2"; }; f a ) 2>&1 | sed 's/^.*line [0-9]*: //'
( set -u; x=$3 ) 2>&1 | sed 's/^.*line [0-9]*: //'
( set -u; echo "${4}" ) 2>&1 | sed 's/^.*line [0-9]*: //'
