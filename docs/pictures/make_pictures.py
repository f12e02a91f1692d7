"""Write the pictures that ``docs/pictures.md`` shows: ``python docs/pictures/make_pictures.py``.

Each picture is drawn by :mod:`trickrules.svg` from the examples of the page,
so the files are the same bytes whenever they are drawn again;
``tests/test_newcomer.py`` checks that they are there and current.
"""

from __future__ import annotations

from pathlib import Path

import trickrules
from trickrules import svg

#: The folder of the pictures (this file's).
HERE = Path(__file__).resolve().parent


def pictures() -> dict[str, str]:
    """Each picture of the page, by file name: its SVG text."""
    suits = [svg.Suit("S", "♠", "black"), svg.Suit("H", "♥", "red")]
    deck = svg.Deck.of(["KS", "AS", "7H"], suits)
    state = trickrules.load("quadrille").new_match(seed=1)
    while not (state.phase == "play" and len(state.trick) == 2):  # into the play, two cards on the table
        state = state.apply(state.legal_actions()[0])
    return {
        "hand.svg": svg.hand(["KS", "AS", "7H"], deck),
        "hand-fanned.svg": svg.hand(["KS", "AS", "7H"], deck, overlap=True),
        "trick.svg": svg.trick([(0, "KS"), (1, "AS"), (2, "7H")], deck, winner=1),
        "table-from-above.svg": state._repr_svg_(),
        "table-from-seat-1.svg": trickrules.View.from_state(state, 1)._repr_svg_(),
    }


def main() -> None:
    """Write every picture into this folder (each file ends with a line break)."""
    for name, text in pictures().items():
        (HERE / name).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
