readonly R=1
R=2
echo "after $R"
unset R 2>/dev/null
echo "still $R"
