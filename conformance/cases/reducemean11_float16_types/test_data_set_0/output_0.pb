
BreducedJ÷ºÌ9±