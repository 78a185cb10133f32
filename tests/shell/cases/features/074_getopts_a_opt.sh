OPTIND=1; getopts "a:" opt -a; echo "$opt ${OPTARG-unset}"
