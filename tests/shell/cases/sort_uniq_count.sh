printf 'b\na\nc\na\nb\na\n' > letters
sort letters | uniq -c | sort -rn
sort -u letters
