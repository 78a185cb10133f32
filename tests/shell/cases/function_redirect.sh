log() { echo "log: $*"; } 
log to-file > logfile
cat logfile
report() { echo line1; echo line2; } > report.out
report
wc -l < report.out
