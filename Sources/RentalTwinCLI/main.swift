print("rental-twin")
