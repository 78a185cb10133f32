echo {a,b,c}
echo x{1,2,3}y
echo {1..5}
echo {5..1}
echo {a..e}
echo {1..10..3}
echo {01..03}
echo {a,b}{x,y}
echo {a,{b,c}}d
echo {}  {a}  {a,}
echo file.{txt,md,}
