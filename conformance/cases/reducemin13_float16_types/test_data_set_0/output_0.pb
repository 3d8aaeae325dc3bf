
BreducedJ|þÿû