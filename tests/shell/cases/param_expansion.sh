path=/usr/local/lib/libfoo.so.1.2
echo "${path##*/}"
echo "${path%/*}"
echo "${path#*/}"
echo "${path%%.*}"
echo "${path/lib/LIB}"
echo "${path//lib/LIB}"
echo "${path/#\/usr/ROOT}"
echo "${path/%2/TWO}"
s=Hello
echo "${s^^} ${s,,} ${s^} ${s,}"
echo "${#path}"
echo "${path:5} ${path:5:5} ${path: -3} ${path: -6:2}"
