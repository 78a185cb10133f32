set -e; f() { false; return 0; }; f; echo survived
