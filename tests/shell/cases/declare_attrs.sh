declare -i n=5
n+=3; echo $n
n="2*4"; echo $n
declare -l lower=HELLO; echo $lower
declare -u upper=hello; echo $upper
declare -r ro=1
ro=2 2>/dev/null || echo "readonly failed"
echo $ro
declare -a arr=(1 2 3); echo ${arr[1]}
declare -p arr
x=5; declare -p x
