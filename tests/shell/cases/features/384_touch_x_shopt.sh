touch x.TXT; shopt -s nocaseglob; echo *.txt
