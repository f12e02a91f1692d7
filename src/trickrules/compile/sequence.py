"""The order of a deal's phases, compiled from the spec.

Every deal of a game runs the same list of mechanisms: dealing first, then
the ones its rules use, in the order below, and the play last. The engine's
generic loop (:func:`trickrules.engine.loop.advance`) asks them in this
order which is due; a mechanism registered from outside the library is
inserted before the phase it names. A mechanism's record sits in a deal at
its position in :func:`phases` (registered ones after the built-in ones).
"""

from __future__ import annotations

import enum

from trickrules.compile.modes import TrumpChooser
from trickrules.compile.passing import PassingRules
from trickrules.compile.rules import Rules

__all__ = ["Phase", "phases"]


class Phase(enum.StrEnum):
    """The built-in phases: what the seat to move is asked to do; each phase is one mechanism module.

    A phase is a string (``Phase.PLAY == "play"``) and shows as one, so a
    state's phase reads the same in a printout, a view and a log. A
    mechanism registered from outside the library has a phase of its own
    name (a plain string).
    """

    DEAL = "deal"
    PASSING = "passing"
    BIDDING = "bidding"
    TRICKS_BID = "tricks_bid"
    MAKING = "making"
    DISCARD = "discard"
    ALONE = "alone"
    TRUMP = "trump"
    CALL = "call"
    EXCHANGE = "exchange"
    ANNOUNCE = "announce"
    DECLARE = "declare"
    PLAY = "play"
    OVER = "over"

    def __repr__(self) -> str:
        return repr(self.value)


#: Who names trumps in a phase of its own (else the trump is turned, fixed, made round the table or none).
_NAMED = frozenset((TrumpChooser.DEALER, TrumpChooser.DECLARER, TrumpChooser.CALLED_HOLDER))


def phases(rules: Rules, passing: PassingRules) -> tuple[Phase, ...]:
    """The built-in phases a game's deals run, in the order they are asked (dealing first, the play last).

    The first decision of a deal is the auction where there is a ladder of
    contracts, else the bids of a number of tricks, else trumps made round
    the table (with the dealer's discard and going alone); then naming
    trumps, calling a card, the exchange and the announcements, as the
    contract asks; declarations open only between tricks.
    """
    out = [Phase.DEAL]
    if passing.used:
        out.append(Phase.PASSING)
    if rules.contracts:
        out.append(Phase.BIDDING)
    elif rules.bids.tricks_bid is not None:
        out.append(Phase.TRICKS_BID)
    elif rules.making is not None:
        out.append(Phase.MAKING)
        if rules.making.taken_by_dealer:
            out.append(Phase.DISCARD)
        if rules.making.alone or rules.making.defend_alone:
            out.append(Phase.ALONE)
    if rules.trump_chosen_by in _NAMED or any(c.trump_by in _NAMED for c in rules.contracts):
        out.append(Phase.TRUMP)
    if any(c.call for c in rules.contracts):
        out.append(Phase.CALL)
    if any(c.exchange for c in rules.contracts):
        out.append(Phase.EXCHANGE)
    if rules.announcements or rules.late_announcements:
        out.append(Phase.ANNOUNCE)
    if rules.declarations:
        out.append(Phase.DECLARE)
    out.append(Phase.PLAY)
    return tuple(out)
