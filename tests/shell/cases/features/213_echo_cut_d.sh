echo $BASH_VERSION | cut -d. -f1
