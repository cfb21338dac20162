"""dd: the tool module (tool.py) and what it reads with: summary lines, logged commands, the card's side, fills."""
