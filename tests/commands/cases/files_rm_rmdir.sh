# rm and rmdir: recursion, '.'/'..', -p chains and quoted names in messages
mkdir -p w/x/y && touch w/a w/x/b w/x/y/c && ln -s x w/lx
rm -rv w/x/y | sort
rm -r w/lx && ls w
rm -rf nope w/nope; echo "s=$?"
rm -r 2>&1; echo "s=$?"
rm ./.. 2>&1; echo "s=$?"
rm -r w/. 2>&1; echo "s=$?"
mkdir e && rm -d e && ls
mkdir e2 && rmdir -v e2
rmdir 2>&1; echo "s=$?"
mkdir -p p/q/r && rmdir -p p/q/r/ && ls
mkdir -p p/q/r && touch p/q/k && rmdir -p p/q/r 2>&1; echo "s=$?"; ls p
rmdir --ignore-fail-on-non-empty p; echo "s=$?"
touch 'sp ace'; rm -v 'sp ace'
rm -v $'new\nline' 2>&1; echo "s=$?"
touch "q'x"; rm -v "q'x"
