echo ${!BASH_VERS*}
