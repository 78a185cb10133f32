true; echo $?
false; echo $?
(exit 42); echo $?
nonexistent_cmd_xyz 2>/dev/null; echo $?
! true; echo $?
! false; echo $?
