# cp's symlink modes (-a -L -H -d -s -l), updates and mv onto links
mkdir -p src/a/b && echo 1 > src/a/f1 && echo 22 > src/a/b/f2 && ln -s a/f1 src/l1 && ln -s /etc/hostname src/abs
cp -a src dst1 && find dst1 | sort && readlink dst1/l1 dst1/abs
cp -rL src dst2 && find dst2 -type l | wc -l && cat dst2/l1
cp -rH src dst3 2>&1; find dst3 -type l | sort
cp -r src/l1 . && ls -l l1 | cut -c1
cp src/l1 plainfile && ls -l plainfile | cut -c1
cp -d src/l1 dlink && readlink dlink
cp -s src/a/f1 symcopy 2>&1; echo "s=$?"
cp -s "$PWD/src/a/f1" symcopy && ls -l symcopy | cut -c1
cp -l src/a/f1 hardcopy && stat -c %h src/a/f1
cp -rv src/a newa | sort
cp -u src/a/f1 newa/f1; echo "s=$?"
mv -v src/a/b src/b2; ls src
mv src/b2 src/a/b/ 2>&1; echo "s=$?"
mv -n src/abs src/l1; readlink src/l1
mv src/abs src/l1 && readlink src/l1 && ls src
