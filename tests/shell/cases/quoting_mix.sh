a="x y"
echo "$a"'$a'$a
echo "nested \"quotes\" and 'single'"
echo 'it'\''s'
echo "tab:	end"
echo $'\'quoted\''
echo "\$literal \\backslash \`tick\`"
b='*'; echo "$b" $b | head -c 1; echo
