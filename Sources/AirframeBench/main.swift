print("airframe-bench")
