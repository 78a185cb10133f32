{
  echo header
  for i in 1 2; do echo "row $i"; done
  echo footer
} > report.txt
wc -l < report.txt
{ echo a; echo b; } | sort -r
