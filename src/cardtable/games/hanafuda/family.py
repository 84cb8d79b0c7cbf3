"""What the four hanafuda games share beyond the rules: their capabilities (bots, hints...),
named where they live so a front end imports only what it uses."""

from cardtable.core.game import Capability

CAPABILITIES = {
    Capability.BOTS: "cardtable.games.hanafuda.bots:BOTS",
    Capability.HINTS: "cardtable.games.hanafuda.hints",
    Capability.ENCODER: "cardtable.games.hanafuda.encoding:HanafudaEncoder",
    Capability.TERMINAL: "cardtable.games.hanafuda.terminal:FRONT_END",
    Capability.COMMANDS: "cardtable.games.hanafuda.commands:COMMANDS",
    Capability.COMPANION: "cardtable.games.hanafuda.companion",
    Capability.DOCS: "cardtable.games.hanafuda.docs",
    Capability.WEB: "cardtable.games.hanafuda.web:CLIENT",
}
#: ISMCTS iterations of the ``hard`` bot: hanafuda playouts are cheap
SEARCH_ITERATIONS = 3000
