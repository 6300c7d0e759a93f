"""One-time setup: board corners, pawn colours, exposure and the LED map."""
