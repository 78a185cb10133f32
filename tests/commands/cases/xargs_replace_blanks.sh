# xargs -I drops the leading white space of each line (isspace: \v \f \r too); a line of
# white space only is no item
printf ' \n2\n\n4\n\n 6 6 \n \v \t 7\n\t\n\v\n\r\f8\na \v\n' | xargs -I% echo '[%]' | od -c
printf '  x y\n\t\n z\n' | xargs -I{} printf '<%s>\n' {}
