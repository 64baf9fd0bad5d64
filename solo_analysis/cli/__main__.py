"""``python -m solo_analysis.cli``: the command line."""

from . import main

main()
