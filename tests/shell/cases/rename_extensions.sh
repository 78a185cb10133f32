mkdir -p imgs && cd imgs
touch a.jpeg b.jpeg c.png "d e.jpeg"
for f in *.jpeg; do mv -- "$f" "${f%.jpeg}.jpg"; done
ls
count=0; for f in *.jpg; do ((count++)); done; echo "renamed $count"
