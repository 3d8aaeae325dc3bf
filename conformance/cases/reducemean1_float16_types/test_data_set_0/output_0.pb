
BreducedJ¸œ¸·