type nonexistent_xyz; echo $?
