exec 4>&1
exec > captured.txt
echo "into file"
exec 1>&4 4>&-
echo "back to stdout"
cat captured.txt
