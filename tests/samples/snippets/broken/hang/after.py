print("after")
