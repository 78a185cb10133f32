# tar extraction: --overwrite writes into the existing file (its hard links see it), the default
# replaces it; a directory's mode and time are set after its members are in (read-only dirs too)
echo Ok > input; ln input input_hard; tar cf test.tar input_hard
echo WRONG > input; tar xf test.tar; cat input; ls -l input_hard | cut -c1-12
rm input_hard; ln input input_hard; tar xf test.tar --overwrite; echo "status $?"; cat input; ls -l input | cut -c1-12
mkdir ro; echo a > ro/f; touch -d '2020-01-02 03:04:05' ro; chmod 550 ro; tar cf ro.tar ro; chmod 770 ro; rm -rf ro
tar xf ro.tar; echo "status $?"; ls -ld ro | cut -c1-10; cat ro/f; ls -l --time-style=+%F ro/.. | grep ' ro$' | awk '{print $6}'
chmod 770 ro; rm -rf ro
mkdir -p t/sub; echo x > t/sub/y; chmod 500 t/sub; tar cf t.tar t; chmod 700 t/sub; rm -rf t
tar xf t.tar; ls -ld t/sub | cut -c1-10; cat t/sub/y; chmod 700 t/sub
