# a negative subscript before an array's start (or any on a scalar or an unset name) says
# "bad array subscript" and expands to nothing; the words and values before it are expanded
# once (an arithmetic side effect is not repeated)
a=(1 2 3); x=1
echo $((x+=2)) ${a[-5]}; echo "x=$x"
y=$((x+=2))${a[-5]}; echo "x=$x y=$y"
[[ $((x+=2)) == ${a[-5]} ]]; echo "x=$x status=$?"
case $((x+=2)) in ${a[-9]}) echo matched ;; esac; echo "x=$x"
b=xyz; echo "[${b[-1]}] [${b[0]}] [${b[1]}]"
echo "[${u[-1]}]"; e=(); echo "[${e[-1]}]"
s=([5]=x); echo "[${s[-1]}] [${s[-2]}] [${s[-6]}] [${s[-7]}]"
echo $(( a[-1] + a[-4] )) $(( b[-1] ))
