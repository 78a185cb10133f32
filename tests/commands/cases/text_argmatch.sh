# GNU argmatch: whole words or unambiguous prefixes (synonyms share one), else the list of
# valid arguments with synonyms on one line (stderr folded into stdout to compare the text)
t() { "$@" 2>&1 </dev/null; echo "$1 $?"; }
touch f g
t sort --sort=x f; t sort --sort=n f; t sort --sort=ver f; t sort --check=x f; t sort --check=s f
t uniq --group=x f; t uniq --all-repeated=x f; t uniq --group=pre f
t tee --output-error=x; t tee --output-error=e
t touch --time=x f; t touch --time=ac f; t touch --time=m f
t ls --sort=si f; t ls --color=n f; t ls --indicator-style=x f
t date --iso-8601=x; t date --rfc-3339=x; date -d @0 -u --iso-8601=m; date -d @0 -u --rfc-3339=s
t cp --preserve=x f g; t cp --preserve=mo f g
