"""Frames to observations: board location, tile openings, pawns, occlusion, and a synthetic renderer."""
