"""Companion tools for games played with a physical deck: round calculators, score pads."""
