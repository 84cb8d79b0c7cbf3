"""Ohanami, the garden drafting game: deck, rows and the game."""

from cardtable.games.ohanami import game
from cardtable.games.ohanami.deck import COLOUR_OF, pink_points
from cardtable.games.ohanami.game import Keep, OhanamiState, Place

__all__ = ["COLOUR_OF", "Keep", "OhanamiState", "Place", "game", "pink_points"]
