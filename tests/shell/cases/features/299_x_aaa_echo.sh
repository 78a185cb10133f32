x=aaa; echo ${x/a/b} ${x//a/b} ${x/#a/b} ${x/%a/b}
