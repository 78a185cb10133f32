for i in 3 1 2; do echo $i; done > nums.txt
sort nums.txt
while read n; do echo "n=$n"; done < nums.txt > out.txt
cat out.txt
for i in 1 2; do echo $i; done | while read x; do echo "piped $x"; done
