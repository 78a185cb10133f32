# \u and \U beyond what a Python str holds (surrogates, above U+10FFFF) give the bytes of
# UTF-8's original scheme, as bash does; from 2**31 on, nothing
export LC_ALL=C.UTF-8
for e in '\udc00' '\U0000dc00' '\U00110000' '\U001fffff' '\U00200000' '\U7fffffff' '\Uffffffff' '\u00e9'; do
  printf "$e" | od -A n -t x1
  echo -e "$e" | od -A n -t x1
done
x=$'\udc00 \U00110000'
printf %s "$x" | od -A n -t x1
echo "status $?"
