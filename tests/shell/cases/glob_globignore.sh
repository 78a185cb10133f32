# GLOBIGNORE, escaped characters in brackets, backslashes from variables, dot files
mkdir -p gi/sub && cd gi
touch one.md one.txt foo.- c.C .hidden sub/two.md sub/two.txt '20231114.log' 'has space.doc'
echo *.[C-D] *.[C\-D]
GLOBIGNORE=*.txt
echo *.* sub/*.*
echo .*
GLOBIGNORE='[[:digit:]]*:*[[:space:]]*'
echo *.*
GLOBIGNORE=*
echo *
GLOBIGNORE=
echo *.md
v='\*\*.md'
echo $v x/$v
v='*\.md'
echo $v
shopt -u globskipdots
echo .*
s=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
g='*a*a*a*a*a*a*a*a*a*a*a*a*b'
[[ $s == $g ]]; echo "match=$?"
echo "${s#*a*a*a*a*a*a*a*a*a*b}" "${s%%a*a*a*a*a*a*a*a*a*}"
