# sed's \xHH escapes name bytes: in a UTF-8 locale the bytes of one character are that
# character (in a pattern, a bracket and a replacement); a lone byte matches even inside a
# character; in the C locale every byte is a character
printf 'a\316\274b\n' > mu
sed 's/\xce\xbc/X/' mu
sed 's/[\xce\xbc]/X/g' mu
sed 's/b/\xce\xbc/' mu
sed 's/\xce//g' mu | od -An -tx1
printf 'a\274b\n' | sed 's/\xbc/X/'
LC_ALL=C sed 's/\xce\xbc/X/' mu
LC_ALL=C sed 's/a./X/' mu | od -An -tx1
printf 'a\316\274b \303\251\n' | LC_ALL=C sed 's/\w/W/g' | od -An -tx1
printf 'x\303\251y\n' | awk '{ gsub(/\xc3\xa9/, "E"); print }'
