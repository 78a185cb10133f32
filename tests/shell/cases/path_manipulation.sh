for p in /usr/local/bin/tool ./relative/file.txt file.tar.gz /trailing/dir/ noext; do
  base=${p##*/}; dir=${p%/*}; [ "$dir" = "$p" ] && dir=.
  ext=${base##*.}; [ "$ext" = "$base" ] && ext=none
  echo "$p -> dir=$dir base=$base ext=$ext stem=${base%%.*}"
done
