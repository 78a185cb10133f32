printf 'one two\nthree\n' > w
wc -l < w
wc -w < w
wc -c < w
