"""The library's error types.

Every error the library raises on bad input is a :class:`TrickrulesError` and
also the matching builtin (``ValueError``), so callers can catch either.
Messages are sentences that quote the offending value and say where it is.
A message never holds a character that is not printable: a control
character quoted from a hostile log, spec or file name is shown escaped, the
way ``repr`` shows it (:func:`printable`), so printing a message to a
terminal cannot drive the terminal.
"""

from __future__ import annotations

__all__ = [
    "ArgumentError",
    "FormulaError",
    "IllegalActionError",
    "LogFormatError",
    "LogIntegrityError",
    "SpecError",
    "TrickrulesError",
    "printable",
    "shown",
]


def printable(text: str) -> str:
    r"""``text`` with every character that is not printable escaped as ``repr`` escapes it.

    Control characters (escape, bell, line breaks, tabs), the C1 controls and
    invisible formatting characters (such as the right-to-left override) come
    out as ``\x1b``, ``\n``, ``\u202e``; everything else, spaces included,
    stays as it is. Text that is printable already is returned unchanged, so
    escaping twice is escaping once.

    >>> printable("play \x1b]0;PWNED\x07 7H")
    'play \\x1b]0;PWNED\\x07 7H'
    >>> printable("Spadille ♠, 10 €")
    'Spadille ♠, 10 €'
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)



def shown(value: object, limit: int = 200) -> str:
    """A short ``repr`` of a value for an error message, safe for hostile values.

    An integer too long to print (Python refuses past 4,300 digits) is
    described by its size; anything else is cut to ``limit`` characters.
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 1024:
        return f"an integer of {value.bit_length()} bits"
    try:
        text = repr(value)
    except ValueError:  # a container holding such an integer
        return f"a {type(value).__name__} holding an integer too long to print"
    return text if len(text) <= limit else text[: limit - 3] + "..."


class TrickrulesError(Exception):
    """Base class of every error raised by trickrules.

    Its message (the first argument, when text) is kept with every character
    that is not printable escaped (:func:`printable`), whatever it quotes.
    """

    def __init__(self, *args: object) -> None:
        if args and isinstance(args[0], str):
            args = (printable(args[0]), *args[1:])
        super().__init__(*args)


class ArgumentError(TrickrulesError, ValueError):
    """An argument given to the library is of the wrong type or out of range.

    A seed, a dealer, a seat, stacked hands, the turned card, starting
    scores or pot, a file path, a game where one is expected: the message
    names the argument and quotes the value. Nothing is changed. (A value
    given as an action that is none is an :class:`IllegalActionError`, like
    a malformed action text.)
    """


class SpecError(TrickrulesError, ValueError):
    """A game spec or variant overlay is malformed, hostile, or inconsistent.

    The message names the file and the key path (``bidding.contracts[2].target``),
    what was expected and what was found.
    """


class FormulaError(SpecError):
    """A payout or scoring formula is malformed or out of range.

    It uses a forbidden construct, or produced a value out of the allowed
    range while being evaluated.
    """


class IllegalActionError(TrickrulesError, ValueError):
    """An action is not legal in the state it was applied to, or is no action at all.

    The message names the rule that forbids it, or quotes the text or value
    that is not an action (``'fly away'``, ``None``). The state is unchanged.
    """


class LogFormatError(TrickrulesError, ValueError):
    """An event log is not readable.

    It is not JSON, has the wrong format or version, is too large or too
    deeply nested, or holds values of the wrong type.
    """


class LogIntegrityError(TrickrulesError, ValueError):
    """An event log reads, but does not replay to the events it records.

    ``seq`` is the sequence number of the first event that does not match,
    or ``None`` when the header is wrong. A log that ends before the match
    (or inside a step) has ``incomplete`` true and ``seq`` equal to the
    number of events it holds: the first one missing.
    """

    def __init__(self, message: str, *, seq: int | None = None, incomplete: bool = False):
        super().__init__(message)
        self.seq = seq
        self.incomplete = incomplete
