# cp/mv/rm/mkdir with trailing slashes, -t/-T targets and symlinked directories
touch f; mkdir d
mkdir -p f/x 2>&1; echo "s=$?"
mkdir -p d/f/../g && ls d
mkdir f/ 2>&1; echo "s=$?"
rm f/ 2>&1; echo "s=$?"
rm -r d/ && ls
mkdir d; mv f d/ && ls d
mv d/f d/g/ 2>&1; echo "s=$?"
cp d/f nodir/ 2>&1; echo "s=$?"
mv d/f . && cp -r d d2 && cp -r d d2 && ls d2
mv d d2 2>&1; echo "s=$?"
rmdir d2/d d2 2>&1; echo "s=$?"
ln -s f l; rm l/ 2>&1; echo "s=$?"
mkdir e; ln -s e le; rm le/ 2>&1; echo "s=$?"; rm -r le/ 2>&1; echo "s=$?"; ls -d e le
rmdir le 2>&1; echo "s=$?"
touch -a f; touch -m f; echo ok
cp -rT d2 d3 && ls d3
mv -T d3 d4 && ls
mv -t d4 f && ls d4
cp -v --target-directory=d4 d4/f d4/g 2>&1; echo "s=$?"
rm -ri d4 && ls
touch ff; mkdir -p zz
cp -t ff ff 2>&1; mv -t ff ff 2>&1; ln -t ff ff 2>&1; cp -t nodir ff 2>&1; cp -T ff zz 2>&1; cp -T zz ff x 2>&1
mv -t zz 2>&1; echo "s=$?"
