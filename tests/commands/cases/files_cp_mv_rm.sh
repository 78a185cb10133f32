# cp, mv, rm, mkdir, rmdir, touch, ln: effects and messages
mkdir -p src/deep/er && echo one > src/f && echo two > src/deep/g && echo three > src/deep/er/h
cp src/f copy && cat copy
cp -v src/f copy2
cp -r src dst && find dst | sort
cp -R src/deep dst/ && find dst/deep | sort
cp src/deep 2>&1; echo "status=$?"
cp src/deep x 2>&1; echo "status=$?"
cp nope x 2>&1; echo "status=$?"
cp src/f src/f 2>&1; echo "status=$?"
cp 2>&1; echo "status=$?"
cp -r src src/deep 2>&1 | head -1
cp src/f src/deep/g missing 2>&1; echo "status=$?"
cp -t dst src/f copy && ls dst
cp -T src/f plain && cat plain
echo new > n && cp -n n copy && cat copy
chmod 750 src/f && cp -p src/f kept && stat -c '%a' kept
cp -a src arch && stat -c '%a %s' arch/f
ln -s f src/lnk && cp -r src withlink && readlink withlink/lnk
cp src/lnk deref && stat -c '%F' deref
mv copy moved && cat moved && ls copy 2>/dev/null; echo "status=$?"
mv -v moved moved2
mv moved2 dst/ && ls dst | sort
mv nope x 2>&1; echo "status=$?"
mv src src/deep 2>&1; echo "status=$?"
mv plain plain 2>&1; echo "status=$?"
mkdir emptyd && mv emptyd dst && ls -d dst/emptyd
rm dst/f && ls dst
rm nope 2>&1; echo "status=$?"
rm -f nope; echo "status=$?"
rm src 2>&1; echo "status=$?"
rm -d src 2>&1; echo "status=$?"
rm -rv dst | sort
rm -r . 2>&1; echo "status=$?"
rm 2>&1; echo "status=$?"
mkdir -p a/b/c && mkdir -pv a/b/c x/y/z
mkdir a 2>&1; echo "status=$?"
mkdir q/r 2>&1; echo "status=$?"
mkdir -m 700 m && stat -c %a m
mkdir -m 751 -p m2/deep && stat -c %a m2 m2/deep
rmdir a 2>&1; echo "status=$?"
rmdir -pv a/b/c
rmdir x/y/z x/y x && ls -d x 2>/dev/null; echo "status=$?"
touch t1 && stat -c '%s %F' t1
touch -c nothere && ls nothere 2>/dev/null; echo "status=$?"
touch -d '2020-01-02 03:04:05' t1 && stat -c %Y t1
touch -t 202101010000.30 t1 && stat -c %Y t1
touch -r t1 t2 && stat -c %Y t2
touch nodir/x 2>&1; echo "status=$?"
touch -d garbage t1 2>&1; echo "status=$?"
ln -s t1 sl && readlink sl && cat sl
ln -s t1 sl 2>&1; echo "status=$?"
ln t1 hl && stat -c %h t1
ln -sf t2 sl && readlink sl
ln -sv t1 sl2
ln -v t1 hl2
ln nope hl3 2>&1; echo "status=$?"
ln m hlm 2>&1; echo "status=$?"
mkdir ld && ln -s ../t1 ld/ && readlink ld/t1
ln -s m lm && ln -sfn t1 lm && readlink lm
