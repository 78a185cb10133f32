# zip -s / --split-size: split archives x.z01, x.z02, ... x.zip as Info-ZIP writes them (cut every
# SIZE bytes, the first part opening with the spanning signature); unzip lists them with
# Info-ZIP's warning (status 1). Stored members: part counts do not depend on the deflater.
seq 1 40000 > s.txt; zip -0 -s 64k sp.zip s.txt; echo "status $?"; ls sp.*; wc -c < sp.z01; wc -c < sp.z03
zip -q -0 --split-size 64k sp2 s.txt; echo "status $?"; ls sp2.*; head -c 4 sp2.z01 | od -An -c
unzip -l sp.zip 2>/dev/null | awk 'NR==4 {print $1, $4}'; unzip -l sp.zip > /dev/null 2>&1; echo "status $?"
unzip -l sp.zip 2>&1 >/dev/null | head -2
zip -s 10k q.zip s.txt; echo "status $?"; zip -s 1x q.zip s.txt; echo "status $?"; ls q* 2>/dev/null; echo "status $?"
zip -q -s 5 one.zip s.txt; echo "status $?"; ls one*; head -c 4 one.zip | od -An -c; unzip -l one.zip | tail -1
zip -s 64k sp.zip s.txt; echo "status $?"; zip -q one.zip s.txt; echo "status $?"
