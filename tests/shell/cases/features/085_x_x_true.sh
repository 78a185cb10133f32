x=1; x=$(true) y=$(exit 3); echo $?
