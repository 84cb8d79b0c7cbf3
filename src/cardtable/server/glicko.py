"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013): a rating, how sure
it is (the rating deviation, RD) and how erratic the player is (the volatility). Each rated
game is a rating period of its own, so a rating moves after every game.

No library is used: the one on PyPI (``glicko2``) is unmaintained, and the whole method
is the sixty lines below, checked against the paper's worked example.

>>> player = Glicko(1500, 200, 0.06)
>>> after = player.after([(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0),
...                       (Glicko(1700, 300), 0.0)])
>>> round(after.rating, 2), round(after.deviation, 2), f"{after.volatility:.5f}"
(1464.05, 151.52, '0.06000')
>>> Glicko().shown()
'1 500 ± 350'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Glicko-2's scale: a rating of 1500 ± 350 is 0 ± 2.01 on it
SCALE = 173.7178
#: how much the volatility may change in one period (the paper suggests 0.3 to 1.2)
TAU = 0.5
START_RATING, START_DEVIATION, START_VOLATILITY = 1500.0, 350.0, 0.06
#: a rating is provisional until this many rated games (its RD is still large)
PROVISIONAL_GAMES = 10
_CONVERGED = 1e-6


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


@dataclass(frozen=True)
class Glicko:
    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    def shown(self) -> str:
        """As a page shows it: "1 512 ± 180" (a thin space groups the thousands)."""
        return f"{round(self.rating):,} ± {round(self.deviation)}".replace(",", " ")

    def after(self, games: Sequence[tuple[Glicko, float]]) -> Glicko:
        """This rating after one period of ``games``: (opponent, score), 1 a win, 0.5 a
        draw, 0 a loss. No game: only the deviation grows."""
        mu, phi = (self.rating - START_RATING) / SCALE, self.deviation / SCALE
        if not games:
            grown = math.sqrt(phi * phi + self.volatility**2)
            return Glicko(self.rating, min(START_DEVIATION, grown * SCALE), self.volatility)
        opponents = [
            ((o.rating - START_RATING) / SCALE, o.deviation / SCALE, score) for o, score in games
        ]
        inverse_v = sum(
            _g(phi_j) ** 2 * _expected(mu, mu_j, phi_j) * (1 - _expected(mu, mu_j, phi_j))
            for mu_j, phi_j, _ in opponents
        )
        v = 1 / inverse_v
        improvement = sum(
            _g(phi_j) * (score - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, score in opponents
        )
        sigma = self._new_volatility(phi, v, v * improvement)
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
        new_mu = mu + new_phi * new_phi * improvement
        return Glicko(START_RATING + SCALE * new_mu, SCALE * new_phi, sigma)

    def _new_volatility(self, phi: float, v: float, delta: float) -> float:
        """The paper's step 5: the root of f by the Illinois algorithm."""
        a = math.log(self.volatility**2)

        def f(x: float) -> float:
            ex = math.exp(x)
            top = ex * (delta * delta - phi * phi - v - ex)
            return top / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (TAU * TAU)

        low = a
        if delta * delta > phi * phi + v:
            high = math.log(delta * delta - phi * phi - v)
        else:
            k = 1
            while f(a - k * TAU) < 0:
                k += 1
            high = a - k * TAU
        f_low, f_high = f(low), f(high)
        while abs(high - low) > _CONVERGED:
            c = low + (low - high) * f_low / (f_high - f_low)
            f_c = f(c)
            if f_c * f_high <= 0:
                low, f_low = high, f_high
            else:
                f_low /= 2
            high, f_high = c, f_c
        return math.exp(low / 2)
