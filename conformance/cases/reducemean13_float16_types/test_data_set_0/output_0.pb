
BreducedJt=1µÙ=