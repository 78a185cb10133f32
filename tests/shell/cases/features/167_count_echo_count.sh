count() { echo $#; }; count *; count "*"
