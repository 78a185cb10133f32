# getopts with an invalid NAME: the option is parsed (OPTIND/OPTARG move on), NAME is not set, status 1
set -- -c foo -h
getopts 'hc:' opt-; echo status=$? opt=$opt OPTARG=$OPTARG OPTIND=$OPTIND
getopts 'hc:' opt-; echo status=$? OPTARG=$OPTARG OPTIND=$OPTIND
getopts 'hc:' opt-; echo status=$? OPTIND=$OPTIND
OPTIND=1; getopts 'hc:' 'x[1]'; echo status=$? ${x[1]-unset} OPTIND=$OPTIND
OPTIND=1; getopts 'hc:' good; echo status=$? good=$good OPTARG=$OPTARG
