# unquoted $@/$* with a non-blank IFS keep empty fields; "$@" joins with spaces in one string;
# tilde in ${x:-~}, in NAME=~ arguments and after : in assignments
show() { printf '<%s>' "$@"; echo; }
set -- one '' two
IFS=x
show $@
show $*
show =$@=
set -- '' '' ''
show $*
IFS=
show =$@= =$*=
IFS=:
set -- x 'y z'
s="$@"; t="[$@]"; u="$*"
show "$s" "$t" "$u"
IFS=' '
HOME=/home/bob
echo x=~ --opt=~ foo:~ a=b:~/c ${undef:-~} ${HOME:+~/z} "${undef:-~}"
x=~:foo y=foo:~ z=~root:~ w=~:${undef-~:~}
echo $x $y $z $w
arr=(~ a=~ x:~)
echo "${arr[@]}"
ZA=1 ZB=2
show "${!Z@}" "${!Z*}"
