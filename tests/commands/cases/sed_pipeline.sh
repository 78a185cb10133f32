printf 'name=ann\nage=30\n\ncity=NY\n' > conf
sed -n 's/^\([a-z]*\)=\(.*\)$/\2 <- \1/p' conf
sed '/^$/d; s/=/: /' conf
sed -i.bak 's/ann/ben/' conf && cat conf conf.bak
printf '1\n2\n3\n4\n' | sed -n '$!N;s/\n/+/;p'
