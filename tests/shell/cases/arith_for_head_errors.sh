# for ((...)) heads: an arithmetic error is "((: ...", a readonly name plainly; both end the loop with status 1
for ((i=1/0;;)); do :; done; echo "init $?"
for ((i=0;i<1;i+=1/0)); do :; done; echo "step $?"
for ((i=0;i<1/0;i++)); do :; done; echo "cond $?"
readonly r=1; for ((r=0;r<1;r++)); do :; done; echo "readonly $?"
n=0; for ((i=0;i<3;i++)); do n=$((n+i)); done; echo "sum $n"
