printf 'a\na\nb\n' | uniq | wc -l
