"""The machinery between an environment and a game's encoder (the ``ENCODER`` capability
of its spec; the encoders live in the game packages, on :mod:`cardtable.core.encoding`).

These functions live in :mod:`cardtable.core.encoding`, where the bots reach them without
the ``rl`` extra; this module keeps their old address for the environments and for code
outside the package.
"""

from cardtable.core.encoding import (
    BaseEncoder,
    apply,
    clipped,
    encoder_for,
    layout_table,
    observe,
)

__all__ = ["BaseEncoder", "apply", "clipped", "encoder_for", "layout_table", "observe"]
