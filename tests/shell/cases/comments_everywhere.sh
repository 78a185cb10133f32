# leading comment
echo one # trailing comment
echo "# not a comment"
echo two#notcomment
: '
multi-line
no-op string
'
echo three
