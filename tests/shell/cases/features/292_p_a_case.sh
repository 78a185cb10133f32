p='a*'; case abc in $p) echo var-pattern;; esac; case 'a*' in "$p") echo quoted-var;; esac
