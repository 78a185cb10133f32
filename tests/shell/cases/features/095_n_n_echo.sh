n=1; n+=1; echo $n
