"""A 12-card toy fishing game that exists only to show that a new game is one package plus
one registry line: importing this package registers it, and the server, the RL
environments, the arena and the CLI play it with no change of theirs (tests/test_house.py).

Three months of four cards (values 5, 3, 2, 1); each of 2 players holds 3 cards, 2 lie on
the table, 4 wait in the stock. On a turn you play a card: it captures a table card of
its month, or stays on the table; then the top stock card is flipped and does the same.
Each player scores what they captured; a round ends when the hands are empty.
"""

from tests.toy_fishing import game

__all__ = ["game"]
