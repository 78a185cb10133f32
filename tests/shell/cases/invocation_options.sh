# bash's own command line: -O/+O shopts, -o, -c with - and --, $0 from the next argument
touch a.txt
bash -O nullglob -c 'echo with nullglob: *.none end'
bash +O nullglob -c 'echo without: *.none end'
bash -o errexit -c 'false; echo not reached'; echo "errexit status=$?"
bash -c -- 'echo dashdash'
bash -c - 'echo dash'
bash -c 'echo "zero=$0 one=$1"' name one
bash -c '' 'ignored'; echo "empty=$?"
bash -c -z 'echo z' 2>/dev/null; echo "invalid=$?"
bash -O no_such_opt -c 'echo x' 2>/dev/null; echo "bad shopt=$?"
echo 'echo "stdin $0 $1"' | bash -s arg1
bash -c 'echo "$-"'
bash -x -c 'echo "$-"' 2>/dev/null
export SHELLOPTS
set -o noglob
bash -c 'echo *'
