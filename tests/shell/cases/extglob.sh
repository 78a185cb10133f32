shopt -s extglob
touch f.txt f.log f.md g.txt
echo !(*.txt)
echo *.@(log|md)
echo +(f|g).txt
x=aaab
echo ${x##+(a)}
[[ foo123 == foo+([0-9]) ]] && echo digits
