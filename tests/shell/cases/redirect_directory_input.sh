# < DIR opens (as open(2) opens a directory for reading): reading it fails with EISDIR, which
# cat and read report; mapfile takes it as the end of its input
mkdir dir
cat < dir; echo "cat=$?"
mapfile lines < ./dir; echo "mapfile=$? ${#lines[@]}"
read x < dir; echo "read=$?"
while read l; do echo "$l"; done < dir; echo "loop=$?"
exec 3< dir; echo "exec=$?"
cat <&3; echo "cat fd=$?"
exec 3<&-
echo hi > dir; echo "write=$?"
