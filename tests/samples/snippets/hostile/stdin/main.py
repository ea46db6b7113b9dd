name = input("your name? ")
print(name)
