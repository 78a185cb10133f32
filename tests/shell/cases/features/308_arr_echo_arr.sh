arr=(1 2 3); echo $arr ${arr} "${arr}"
