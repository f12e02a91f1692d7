"""Compiling a spec's play obligations into :class:`PlayRules`: rule records in the order they apply.

Each obligation names a general primitive (``follow_suit``, ``overtrump``...)
with parameters; :func:`compile_play` checks which parameters each takes and
their values (with the key path in the message) and turns the list into the
records of :mod:`trickrules.compile.duties`, which
:mod:`trickrules.engine.obligations` applies on its hot path.
:mod:`trickrules.compile.rules` calls it and re-exports :class:`PlayRules`.
"""

from __future__ import annotations

from attrs import define, frozen

from trickrules.compile.duties import (
    CalledCardFollow,
    CalledCardLead,
    FollowDuty,
    HeadTrick,
    LeadDuty,
    NoUndertrump,
    Overtrump,
    PrivilegedExempt,
    TrumpToBeat,
    TrumpWhenVoid,
    VoidDuty,
)
from trickrules.compile.leads import LEAD_RULE_PARAMS
from trickrules.compile.modes import HeadTrickMode, OvertrumpIfUnable, PrivilegedForcedBy
from trickrules.errors import SpecError
from trickrules.spec.model import ObligationSpec, Spec
from trickrules.spec.sealed import Sealed

__all__ = ["PlayRules", "compile_play"]

#: The obligations that only make sense on top of ``follow_suit``.
NEED_FOLLOW_SUIT = ("head_trick", "called_card", "trump_when_void", "overtrump", "no_undertrump", "privileged_cards")


@frozen
class PlayRules(Sealed):
    """The play obligations: rule records in the order they apply, and the switches read elsewhere.

    See ``docs/dsl.md`` for what each primitive means, and
    :mod:`trickrules.compile.duties` for how the records apply.
    """

    follow_suit: bool
    #: Settle what the player to lead may lead (the first that concerns him).
    leading: tuple[LeadDuty, ...]
    #: Settle what a player holding the suit led may play (the first that concerns him).
    following: tuple[FollowDuty, ...]
    #: Narrow, each in turn, what a player unable to follow suit may play.
    void: tuple[VoidDuty, ...]
    #: The names of the privileged promoted cards (``privileged_cards``).
    privileged: frozenset[str]
    privileged_forced_by: PrivilegedForcedBy
    #: The called card's holder may not lead it (the play asks for the lead's mask).
    called_card_no_lead: bool
    revoke_penalised: bool
    any_suit_wins: bool


@define
class _Found:
    """The obligations met so far while reading the list, with their parameters checked."""

    follow_suit: bool = False
    head_trick: HeadTrick | None = None
    #: ``trump_when_void``: whether only a trump that beats the trick is due, and ``partner_exempt``.
    trump_when_void: tuple[bool, bool] | None = None
    #: ``overtrump``: ``if_unable`` and ``partner_exempt``.
    overtrump: tuple[OvertrumpIfUnable, bool] | None = None
    no_undertrump: bool = False
    privileged: frozenset[str] = frozenset()
    forced_by: PrivilegedForcedBy = PrivilegedForcedBy.HIGHER_LEAD
    privileged_sole: bool = False
    #: ``called_card``: whether its mode is ``no_lead``.
    called_card: bool | None = None


def _fail(where: str, path: str, message: str) -> SpecError:
    return SpecError(f"{where}: {path}: {message}")


def _allow(ob: ObligationSpec, where: str, path: str, *params: str) -> None:
    """Refuse a parameter given to an obligation that does not take it."""
    given = {
        "mode": ob.mode,
        "cards": ob.cards,
        "forced_by": ob.forced_by,
        "partner_exempt": ob.partner_exempt,
        "if_unable": ob.if_unable,
        "suit": ob.suit,
        "broken_by": ob.broken_by,
        "unless_only": ob.unless_only,
    }
    for key, value in given.items():
        if value and key not in params:
            raise _fail(where, f"{path}.{key}", f"not a parameter of {ob.rule!r}.")


def _choose(value: str, choices: tuple[str, ...], key: str, default: str, where: str, path: str) -> str:
    """``value`` (or ``default`` when it is empty), refused unless it is one of ``choices``."""
    value = value or default
    if value not in choices:
        raise _fail(where, f"{path}.{key}", f"expected one of {list(choices)}, found {value!r}.")
    return value


def _privileged(ob: ObligationSpec, promotions: set[str], found: _Found, where: str, path: str) -> None:
    _allow(ob, where, path, "cards", "forced_by", "mode")
    for k, name in enumerate(ob.cards):
        if name not in promotions:
            raise _fail(where, f"{path}.cards[{k}]", f"{name!r} is not the name of a promotion in trump.promotions.")
    forced_by = _choose(ob.forced_by, ("higher_lead", "any_trump_lead"), "forced_by", "higher_lead", where, path)
    mode = _choose(ob.mode, ("only_privileged", "sole_trump"), "mode", "only_privileged", where, path)
    found.privileged = frozenset(ob.cards)
    found.forced_by = PrivilegedForcedBy(forced_by)
    found.privileged_sole = mode == "sole_trump"


def _read(ob: ObligationSpec, promotions: set[str], found: _Found, where: str, path: str) -> None:
    """Check one obligation's parameters and note it in ``found``."""
    if ob.rule == "follow_suit":
        _allow(ob, where, path)
        found.follow_suit = True
    elif ob.rule == "head_trick":
        _allow(ob, where, path, "mode", "partner_exempt", "if_unable")
        mode = _choose(ob.mode, ("always", "trump_lead"), "mode", "always", where, path)
        if_unable = _choose(ob.if_unable, ("free", "beat_led_suit"), "if_unable", "free", where, path)
        found.head_trick = HeadTrick(HeadTrickMode(mode), if_unable == "beat_led_suit", ob.partner_exempt)
    elif ob.rule == "trump_when_void":
        _allow(ob, where, path, "mode", "partner_exempt")
        mode = _choose(ob.mode, ("always", "if_beats"), "mode", "always", where, path)
        found.trump_when_void = (mode == "if_beats", ob.partner_exempt)
    elif ob.rule == "overtrump":
        _allow(ob, where, path, "if_unable", "partner_exempt")
        if_unable = _choose(ob.if_unable, ("any", "trump"), "if_unable", "any", where, path)
        found.overtrump = (OvertrumpIfUnable(if_unable), ob.partner_exempt)
    elif ob.rule == "no_undertrump":
        _allow(ob, where, path)
        found.no_undertrump = True
    elif ob.rule == "privileged_cards":
        _privileged(ob, promotions, found, where, path)
    elif ob.rule == "called_card":
        _allow(ob, where, path, "mode")
        mode = _choose(ob.mode, ("must_follow", "no_lead"), "mode", "must_follow", where, path)
        found.called_card = mode == "no_lead"
    elif ob.rule in LEAD_RULE_PARAMS:
        # Checked for their parameters here; compiled against the deck by trickrules.compile.leads.
        _allow(ob, where, path, *LEAD_RULE_PARAMS[ob.rule])


def _void_duties(found: _Found) -> tuple[VoidDuty, ...]:
    """The duties of a player who cannot follow suit: the duty to trump (if any), then no undertrumping."""
    duties: list[VoidDuty] = []
    if found.trump_when_void is not None:
        if_beats, partner_exempt = found.trump_when_void
        if if_beats:
            duties.append(TrumpToBeat(partner_exempt))  # beating the trick is the duty: overtrump adds nothing
        elif found.overtrump is not None:
            if_unable, overtrump_exempt = found.overtrump
            duties.append(Overtrump(partner_exempt, overtrump_exempt, if_unable))
        else:
            duties.append(TrumpWhenVoid(partner_exempt))
    if found.no_undertrump:
        duties.append(NoUndertrump())
    return tuple(duties)


def compile_play(spec: Spec, where: str) -> PlayRules:
    """Check the play obligations of ``spec`` and compile them into :class:`PlayRules`."""
    found = _Found()
    seen: set[str] = set()
    promotions = {p.name for p in spec.trump.promotions}
    for n, ob in enumerate(spec.play.obligations):
        path = f"play.obligations[{n}]"
        if ob.rule in seen:
            raise _fail(where, path, f"the rule {ob.rule!r} is listed twice.")
        seen.add(ob.rule)
        _read(ob, promotions, found, where, path)
    needing = [r for r in NEED_FOLLOW_SUIT if r in seen]
    if needing and not found.follow_suit:
        raise _fail(where, "play.obligations", f"{', '.join(map(repr, needing))} need 'follow_suit' as well.")
    if found.overtrump is not None and found.trump_when_void is None:
        raise _fail(where, "play.obligations", "'overtrump' needs 'trump_when_void'.")
    # A player holding the suit led: a privileged card's exemption first, then the called card's duty,
    # then heading the trick (the order the rules have always been applied in).
    following: list[FollowDuty] = []
    if found.privileged and found.forced_by is PrivilegedForcedBy.HIGHER_LEAD:
        following.append(PrivilegedExempt(found.privileged_sole))
    if found.called_card is not None:
        following.append(CalledCardFollow())
    if found.head_trick is not None:
        following.append(found.head_trick)
    return PlayRules(
        follow_suit=found.follow_suit,
        leading=(CalledCardLead(),) if found.called_card else (),
        following=tuple(following),
        void=_void_duties(found),
        privileged=found.privileged,
        privileged_forced_by=found.forced_by,
        called_card_no_lead=bool(found.called_card),
        revoke_penalised=spec.play.revoke == "penalise",
        any_suit_wins=spec.play.trick_winner == "any_suit",
    )
