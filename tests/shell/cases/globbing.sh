mkdir -p g && cd g
touch a.txt b.txt c.log .hidden
echo *.txt
echo *
echo ?.log
echo [ab].*
echo *.none
shopt -s nullglob; echo *.none; shopt -u nullglob
shopt -s dotglob; echo *; shopt -u dotglob
mkdir -p sub/deep && touch sub/x.txt sub/deep/y.txt
shopt -s globstar; echo **/*.txt
