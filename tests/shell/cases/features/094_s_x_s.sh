s="x"; s+="y"; s+=z; echo $s
