mkdir -p backups
for d in 01 02 03 04 05 06 07; do touch "backups/db-2024-01-$d.sql"; done
keep=3
files=(backups/db-*.sql)
echo "found ${#files[@]}"
excess=$(( ${#files[@]} - keep ))
for ((i=0; i<excess; i++)); do rm "${files[i]}"; done
ls backups
