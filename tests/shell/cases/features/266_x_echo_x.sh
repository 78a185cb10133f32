x=*; echo "$x"
