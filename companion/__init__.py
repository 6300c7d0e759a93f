"""labyrinth-companion: a camera-and-LED referee for the Labyrinth board game."""

__version__ = "0.1.0"
