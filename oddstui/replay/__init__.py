"""`oddstui replay`: a recording served as a v3 service on loopback."""
