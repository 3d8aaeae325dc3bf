
BreducedJşÿûU}U}|U}