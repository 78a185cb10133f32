# a negative precision from * is no precision (it once ended the shell: internal error ValueError);
# a negative width from * left-justifies; ".-N" in the format is what glibc makes of it
printf '|%.*f|\n' -12 5.25
printf '|%.*d|%.*s|%*.*e|\n' -1 42 -3 abc -12 -2 1.5
printf '|%*d|%-*d|\n' -5 1 -5 2
printf '|%.-5f|%-0.-5d|%*.-5d|%0+ #5.-d|%.-5b|%5.-3q|%.-3s|\n' 1 1 -3 1 2 abc def ghi
echo "status $?"
