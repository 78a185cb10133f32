# parameter expansion in a loop
out=""
for i in $(seq 1 3000); do
  name="file_${i}.txt"
  base=${name%.txt}
  up=${base^^}
  out+="${up#FILE_}"
done
echo "${#out}"
