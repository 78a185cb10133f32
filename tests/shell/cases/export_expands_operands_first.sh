# export expands every NAME=VALUE operand before it assigns any
x=0; export x=1 y=$x; echo $y
export FOO=foo v=$(env | grep -c '^FOO=')
echo "v=$v"
HOME=/h; export p=~/a:~/b q=(1 2) 2>/dev/null; echo "$p"
