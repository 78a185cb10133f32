# stdin: Bob\n42\n
read -p "Name: " name
read -p "Age: " age
echo "Hello $name, you are $age"
