f=archive.tar.gz; echo "${f%.tar.gz}" "${f%.*}" "${f#*.}"
