name="World"
greeting='Hello'
echo "$greeting, $name!"
echo "${greeting}s"
x='a b   c'
echo $x
echo "$x"
printf '[%s]\n' $x
printf '[%s]\n' "$x"
empty=
printf '[%s]\n' $empty "$empty"
