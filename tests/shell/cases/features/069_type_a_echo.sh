type -a echo | head -2
