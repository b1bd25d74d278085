"""Quick pairing ("Play now"): the pool, its pairs and its API."""
