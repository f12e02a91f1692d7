"""Player actions: small frozen values with a canonical text form.

``str(action)`` gives the text form and :meth:`Action.parse` reads it back;
``state.apply`` accepts either. A character that is not printable (which no
legal action holds) is shown escaped in the text form, as ``repr`` shows it,
so that a message quoting a hostile action cannot drive a terminal. The verbs (``docs/actions.md``):

=============  ===========================================================
``pass``       pass in the auction; decline a declaration or announcement
``bid NAME``   bid a contract of the ladder (``bid solo``)
``trump S``    name the trump suit by its code, or ``trump none``
``call CARD``  call the card whose holder becomes the declarer's partner
``give CARD``  hand one card face down in an exchange
``play CARD``  play a card to the trick
``declare N``  declare a meld (``declare 40``; ``declare 20 O`` names the suit)
``announce N`` make an announcement before the first lead (``announce vole``)
``discard C``  discard a card face down after taking up the turned card
``alone``      play alone, one's partner sitting out (made trumps)
``deal CARD``  chance: the next card dealt is ``CARD``
``size N``     chance: the deal's hand size is ``N`` (a size drawn at random)
``direction N`` chance: passed cards go ``N`` seats on (a direction drawn at random)
=============  ===========================================================

The last three are chance outcomes (``state.chance_outcomes()``), not a
seat's: they are applied at a chance step of a match started with
``chance="caller"``.
"""

from __future__ import annotations

import enum

from attrs import Attribute, field, frozen

from trickrules.errors import ArgumentError, IllegalActionError, printable
from trickrules.spec.sealed import Sealed

__all__ = ["VERBS", "Action", "Verb", "forget_verb", "register_verb"]

#: The verbs of the action language, and whether each takes an argument.
class Verb(enum.StrEnum):
    """The built-in verbs of the action language (an action's ``verb`` equals one of these, or a registered verb)."""

    PASS = "pass"
    BID = "bid"
    TRUMP = "trump"
    CALL = "call"
    GIVE = "give"
    PLAY = "play"
    DECLARE = "declare"
    ANNOUNCE = "announce"
    DISCARD = "discard"
    ALONE = "alone"
    # Chance outcomes, at a chance step (no seat decides them).
    DEAL = "deal"
    SIZE = "size"
    DIRECTION = "direction"


#: The verbs of the action language (the built-in ones and any registered), and whether each takes an argument.
VERBS: dict[str, bool] = {
    verb.value: verb not in (Verb.PASS, Verb.ALONE) for verb in Verb
}

#: The verbs every game knows.
_BUILT_IN = frozenset(VERBS)

MAX_ACTION_TEXT = 64


def register_verb(verb: str, takes_arg: bool) -> None:
    """Add a verb to the action language (for a mechanism registered from outside the library).

    Registering a verb again the same way changes nothing; a verb already
    known with the other arity is an :class:`~trickrules.errors.ArgumentError`.
    """
    if type(verb) is not str or not verb.isidentifier() or not verb.islower():
        raise ArgumentError(f"a verb must be a lower-case identifier, found {verb!r}.")
    found = VERBS.get(verb)
    if found is not None and found != takes_arg:
        raise ArgumentError(f"the verb {verb!r} is already known, {'with' if found else 'without'} an argument.")
    VERBS[verb] = bool(takes_arg)


def forget_verb(verb: str) -> None:
    """Remove a verb added by :func:`register_verb` (the built-in verbs stay)."""
    if verb not in _BUILT_IN:
        VERBS.pop(verb, None)


def _text(action: object, attribute: Attribute[str], value: object) -> None:
    if type(value) is not str:
        raise IllegalActionError(f"an action's {attribute.name} must be text, found {value!r}")


@frozen(repr=False)
class Action(Sealed):
    """One player action: a verb and its argument (``""`` for ``pass``)."""

    verb: str = field(validator=_text)
    arg: str = field(default="", validator=_text)

    def _plain(self) -> str:
        return f"{self.verb} {self.arg}" if self.arg else self.verb

    def __str__(self) -> str:
        return printable(self._plain())

    def __repr__(self) -> str:
        return f"Action.parse({self._plain()!r})"

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read an action from its text form; raise :class:`IllegalActionError` if malformed."""
        if not isinstance(text, str) or len(text) > MAX_ACTION_TEXT:
            raise IllegalActionError(f"not an action: {str(text)[:MAX_ACTION_TEXT]!r}")
        words = text.split()
        if not words or words[0] not in VERBS:
            known = ", ".join(VERBS)
            raise IllegalActionError(f"not an action: {text!r} (the verbs are {known})")
        verb, rest = words[0], " ".join(words[1:])
        if VERBS[verb] and not rest:
            raise IllegalActionError(f"not an action: {text!r} ('{verb}' needs an argument)")
        if not VERBS[verb] and rest:
            raise IllegalActionError(f"not an action: {text!r} ('{verb}' takes no argument)")
        return cls(verb, rest)
