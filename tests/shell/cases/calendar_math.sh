is_leap() { local y=$1; (( (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 )); }
days_in() { local m=$1 y=$2; case $m in 1|3|5|7|8|10|12) echo 31;; 4|6|9|11) echo 30;; 2) is_leap $y && echo 29 || echo 28;; esac; }
for y in 1900 2000 2023 2024; do is_leap $y && echo "$y leap" || echo "$y common"; done
total=0; for m in {1..12}; do total=$((total + $(days_in $m 2024))); done; echo "2024 has $total days"
