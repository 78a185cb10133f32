# check lines: one blank (md5 -r style) or blank + mode; the first line that tells decides for the run
echo abc > f; echo xyz > ' g'
d=$(sha256sum f | cut -c1-64); e=$(sha256sum ' g' | cut -c1-64)
printf '%s f\n# a comment\n  %s  f\n%s\tf\n%s *f\n' $d $d $d $d > one
printf '%s  f\n%s f\n' $d $d > two
printf '%s f\n%s  g\n' $d $e > spaced
printf '%s *f\n' $d > star
printf '%s  f\n%sf\n%s  \n' $d $d $d > short
for s in one two spaced star short "two one"; do echo "== $s"; sha256sum -c $s 2>&1; echo "status $?"; done
sha256sum -c --strict two; echo "status $?"
