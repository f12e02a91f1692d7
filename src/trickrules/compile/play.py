"""Compiling a spec's play obligations into the switches of :class:`PlayRules`.

Each obligation names a general primitive (``follow_suit``, ``overtrump``...)
with parameters; :func:`compile_play` checks which parameters each takes and
their values (with the key path in the message) and flattens the list into
switches the engine reads on its hot path. :mod:`trickrules.compile.rules`
calls it and re-exports :class:`PlayRules`.
"""

from __future__ import annotations

from attrs import frozen

from trickrules.compile.leads import LEAD_RULE_PARAMS
from trickrules.errors import SpecError
from trickrules.spec.model import ObligationSpec, Spec
from trickrules.spec.sealed import Sealed

__all__ = ["PlayRules", "compile_play"]

#: The obligations that only make sense on top of ``follow_suit``.
NEED_FOLLOW_SUIT = ("head_trick", "called_card", "trump_when_void", "overtrump", "no_undertrump", "privileged_cards")


@frozen
class PlayRules(Sealed):
    """The play obligations, flattened into switches and card masks.

    See ``docs/dsl.md`` for what each primitive means; the names of the
    switches follow the primitives' parameters.
    """

    follow_suit: bool
    head_trick: str  # "" (off), "always", "trump_lead"
    head_when_ruffed: bool
    head_partner_exempt: bool
    trump_when_void: str  # "" (off), "always", "if_beats"
    trump_partner_exempt: bool
    overtrump: bool
    overtrump_if_unable: str  # "any", "trump"
    overtrump_partner_exempt: bool
    no_undertrump: bool
    privileged: frozenset[str]
    privileged_forced_by: str  # "higher_lead", "any_trump_lead"
    privileged_sole: bool  # mode "sole_trump": privileged only as its holder's one trump
    called_card: bool
    called_card_no_lead: bool
    revoke_penalised: bool
    any_suit_wins: bool


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


def _privileged_switches(ob: ObligationSpec, promotions: set[str], where: str, path: str) -> dict[str, object]:
    _allow(ob, where, path, "cards", "forced_by", "mode")
    for k, name in enumerate(ob.cards):
        if name not in promotions:
            raise _fail(where, f"{path}.cards[{k}]", f"{name!r} is not the name of a promotion in trump.promotions.")
    forced_by = _choose(ob.forced_by, ("higher_lead", "any_trump_lead"), "forced_by", "higher_lead", where, path)
    mode = _choose(ob.mode, ("only_privileged", "sole_trump"), "mode", "only_privileged", where, path)
    return {
        "privileged": frozenset(ob.cards),
        "privileged_forced_by": forced_by,
        "privileged_sole": mode == "sole_trump",
    }


def _switches(ob: ObligationSpec, promotions: set[str], where: str, path: str) -> dict[str, object]:
    """The switches one obligation turns on, after checking its parameters."""
    if ob.rule == "follow_suit":
        _allow(ob, where, path)
        return {"follow_suit": True}
    if ob.rule == "head_trick":
        _allow(ob, where, path, "mode", "partner_exempt", "if_unable")
        mode = _choose(ob.mode, ("always", "trump_lead"), "mode", "always", where, path)
        if_unable = _choose(ob.if_unable, ("free", "beat_led_suit"), "if_unable", "free", where, path)
        return {
            "head_trick": mode,
            "head_when_ruffed": if_unable == "beat_led_suit",
            "head_partner_exempt": ob.partner_exempt,
        }
    if ob.rule == "trump_when_void":
        _allow(ob, where, path, "mode", "partner_exempt")
        mode = _choose(ob.mode, ("always", "if_beats"), "mode", "always", where, path)
        return {"trump_when_void": mode, "trump_partner_exempt": ob.partner_exempt}
    if ob.rule == "overtrump":
        _allow(ob, where, path, "if_unable", "partner_exempt")
        if_unable = _choose(ob.if_unable, ("any", "trump"), "if_unable", "any", where, path)
        return {
            "overtrump": True,
            "overtrump_if_unable": if_unable,
            "overtrump_partner_exempt": ob.partner_exempt,
        }
    if ob.rule == "no_undertrump":
        _allow(ob, where, path)
        return {"no_undertrump": True}
    if ob.rule == "privileged_cards":
        return _privileged_switches(ob, promotions, where, path)
    if ob.rule == "called_card":
        _allow(ob, where, path, "mode")
        mode = _choose(ob.mode, ("must_follow", "no_lead"), "mode", "must_follow", where, path)
        return {"called_card": True, "called_card_no_lead": mode == "no_lead"}
    if ob.rule in LEAD_RULE_PARAMS:
        # Checked for their parameters here; compiled against the deck by trickrules.compile.leads.
        _allow(ob, where, path, *LEAD_RULE_PARAMS[ob.rule])
    return {}


def compile_play(spec: Spec, where: str) -> PlayRules:
    """Check the play obligations of ``spec`` and flatten them into :class:`PlayRules`."""
    switches: dict[str, object] = {
        "follow_suit": False,
        "head_trick": "",
        "head_when_ruffed": False,
        "head_partner_exempt": False,
        "trump_when_void": "",
        "trump_partner_exempt": False,
        "overtrump": False,
        "overtrump_if_unable": "any",
        "overtrump_partner_exempt": False,
        "no_undertrump": False,
        "privileged": frozenset(),
        "privileged_forced_by": "higher_lead",
        "privileged_sole": False,
        "called_card": False,
        "called_card_no_lead": False,
        "revoke_penalised": spec.play.revoke == "penalise",
        "any_suit_wins": spec.play.trick_winner == "any_suit",
    }
    seen: set[str] = set()
    promotions = {p.name for p in spec.trump.promotions}
    for n, ob in enumerate(spec.play.obligations):
        path = f"play.obligations[{n}]"
        if ob.rule in seen:
            raise _fail(where, path, f"the rule {ob.rule!r} is listed twice.")
        seen.add(ob.rule)
        switches.update(_switches(ob, promotions, where, path))
    needing = [r for r in NEED_FOLLOW_SUIT if r in seen]
    if needing and not switches["follow_suit"]:
        raise _fail(where, "play.obligations", f"{', '.join(map(repr, needing))} need 'follow_suit' as well.")
    if switches["overtrump"] and not switches["trump_when_void"]:
        raise _fail(where, "play.obligations", "'overtrump' needs 'trump_when_void'.")
    return PlayRules(**switches)  # type: ignore[arg-type]
