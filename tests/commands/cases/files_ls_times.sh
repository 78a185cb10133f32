# ls sorting by time and the long-format date column (owners are left out: they differ)
mkdir d && cd d
touch -d '2020-01-02 03:04:05' old && touch -d '2021-06-07 08:09:10' mid && touch -d '2019-12-31 23:59:59' older
printf '1234' > sized && touch -d '2018-05-05 05:05:05' sized
ls -t
ls -tr
ls -lt | awk 'NR > 1 {print $6, $7, $8, $9}'
ls -l --full-time old | awk '{print $6, $7, $8}'
ls -lS | awk 'NR > 1 {print $5, $9}'
ls -lu older | awk '{print $6, $7, $8}'
ls -l sized | awk '{print $1, $2, $5, $6, $7, $8, $9}'
ls -g sized | awk '{print $1, $4, $8}'
ls -o sized | awk '{print $1, $4, $8}'
ls -s sized
ls -1s
stat -c '%y %Y' old
stat -c '%x' older
find . -newer older -type f | sort
find . -not -newer old -type f | sort
find . -mtime +1000 | sort
touch -d '@1600000000' epoch && stat -c %Y epoch && ls -l epoch | awk '{print $6, $7, $8}'
touch -d '2020-02-29' leap && ls -l leap | awk '{print $6, $7, $8}'
touch -m -d '2001-01-01 00:00' sized && stat -c %Y sized
touch -d '2020-01-02 03:04:05' f; touch g
ls -l --time-style=long-iso f | awk '{print $6, $7, $8}'
ls -l --time-style=iso f | awk '{print $6, $7}'
ls -l --time-style=iso g | awk '{print NF}'
ls -l --time-style=full-iso f | awk '{print $6, $7, $8}'
ls -l --time-style=+%Y/%m f | awk '{print $6}'
ls -l --time-style=locale f | awk '{print $6, $7, $8}'
ls -l --time-style=posix-long-iso f | awk '{print $6, $7, $8}'
ls -l --time-style=bogus f 2>/dev/null; echo "s=$?"
ls --full-time f | awk '{print $6, $7, $8}'
