# ls: listing formats that do not depend on owners or times
mkdir -p dir/sub dir/.hidden && touch dir/b dir/a dir/C dir/sub/x
printf 'hello' > dir/five; printf '1234567890' > dir/ten
ls dir
ls -a dir
ls -A dir
ls -1 dir/sub
ls -d dir dir/sub
ls -r dir
ls -S dir | head -3
ls -F dir
ls -p dir
ls -R dir
ls dir/sub dir/a
ls -C dir
ls -m dir
ls -x dir
ls nope 2>/dev/null; echo "status=$?"
ls nope dir/sub 2>&1; echo "status=$?"
ls -l dir | awk '{print $1, $2, $5, $NF}'
ls -la dir/sub | awk 'NR > 1 {print $1, $NF}'
ls -lh dir/ten | awk '{print $5}'
ls -ld dir | awk '{print $1}'
ln -s sub dir/link; ls -l dir/link | awk '{print $1, $(NF-2), $(NF-1), $NF}'
ls -lF dir/link | awk '{print $NF}'
ls dir/link
ls -Y 2>/dev/null; echo "status=$?"
ls --color=never -1 dir | head -2
cd dir && ls && ls .. && ls -d .
