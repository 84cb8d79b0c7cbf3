"""``python -m cardtable`` is the ``cardtable`` command."""

from cardtable.cli import main

main()
