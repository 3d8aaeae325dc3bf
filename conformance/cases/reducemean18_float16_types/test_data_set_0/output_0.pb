
BreducedJ«7[7)=