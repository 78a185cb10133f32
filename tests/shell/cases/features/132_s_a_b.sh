s="a b c"; arr=($s); echo ${arr[-1]} ${arr[@]: -1}
