x=$(echo -e 'a\nb' | wc -l); echo $((x + 0))
