"""Human-readable summaries generated from a compiled game, and match printouts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trickrules.compile.cards import NO_TRUMP
from trickrules.engine.events import (
    Announced,
    AuctionWon,
    Awarded,
    BidMade,
    CardCalled,
    CardGiven,
    CardPassed,
    CardPlayed,
    DealScored,
    Dealt,
    Declared,
    Discarded,
    Event,
    MatchEnded,
    MechanismEvent,
    Misdealt,
    Paid,
    PartnerRevealed,
    Passed,
    PassingDone,
    Redeal,
    TricksBid,
    TrickWon,
    TrumpNamed,
    TurnedTaken,
    WentAlone,
)
from trickrules.engine.state import GameLike
from trickrules.engine.values import Phase
from trickrules.spec.converter import unstructure

__all__ = ["describe_event", "game_data", "in_print_order", "rules_data", "rules_text"]


def rules_data(game: GameLike, trump: str | None = None) -> dict[str, Any]:
    """The deck and rank orders as plain data (the ``rules --json`` output).

    ``trump`` is a suit code or ``none``; it defaults to the first trump
    choice of the game.
    """
    cards = game.cards
    key = _trump_key(game, trump)
    table = game.cards.table(key)
    names = dict(table.promoted)
    return {
        "game": game.name,
        "trump": cards.trump_code(key),
        "trump_order": [cards.codes[c] for c in table.order],
        "promoted": {cards.codes[c]: names[c] for c in table.order if c in names},
        "plain_orders": {
            cards.suit_codes[s]: [cards.codes[c] for c in order] for s, order in enumerate(table.plain_orders) if order
        },
        "deck": list(cards.codes),
        "points": {code: p for code, p in zip(cards.codes, cards.points, strict=True) if p},
        "total_points": sum(cards.points),
    }


def game_data(game: GameLike, trump: str | None = None) -> dict[str, Any]:
    """The whole compiled game as plain data (the ``rules --json`` output).

    The deck and card points; the rank orders with their promotions for
    every trump choice (or only ``trump``); the contracts, low to high; the
    options with their value, default, choices and the clauses each choice
    changes; and ``spec``, the resolved spec (the bidding ladder, the play
    obligations, the payout formulas, the match's end) as the DSL's own data.
    """
    cards = game.cards
    spec = game.spec
    keys = [_trump_key(game, trump)] if trump is not None else list(cards.trump_keys())
    orders = []
    for key in keys:
        data = rules_data(game, cards.trump_code(key))
        orders.append({k: data[k] for k in ("trump", "trump_order", "promoted", "plain_orders")})
    return {
        "game": game.name,
        "title": game.title,
        "fingerprint": game.fingerprint,
        "players": game.players,
        "deck": list(cards.codes),
        "points": {code: p for code, p in zip(cards.codes, cards.points, strict=True) if p},
        "total_points": sum(cards.points),
        "orders": orders,
        "contracts": [c.name for c in game.rules.contracts],
        "options": {
            name: {
                "value": game.options.get(name, opt.default),
                "default": opt.default,
                "choices": list(opt.choices),
                "doc": opt.doc,
                "changes": {choice: list(clauses) for choice, clauses in opt.changes.items()},
            }
            for name, opt in spec.options.items()
        },
        "spec": unstructure(spec),
    }


def _trump_key(game: GameLike, trump: str | None) -> int:
    keys = game.cards.trump_keys()
    if trump is None:
        return keys[0]
    if trump.lower() == "none":
        if NO_TRUMP not in keys:
            raise ValueError(f"{game.name} is not played without trumps")
        return NO_TRUMP
    try:
        key = game.cards.trump_key(trump)
    except ValueError:
        known = ", ".join((*game.cards.suit_codes, *game.cards.set_names))
        raise ValueError(f"{trump!r} is not a suit of {game.name} ({known})") from None
    if key not in keys:
        raise ValueError(f"{game.name} cannot have {trump} as trumps")
    return key


def rules_text(game: GameLike, trump: str | None = None) -> str:
    """A readable rules summary: deck, ranks per trump suit, ladder, obligations, payouts."""
    spec = game.spec
    cards = game.cards
    out: list[str] = [f"{game.title} ({game.name}, fingerprint {game.fingerprint})", ""]
    out.append(f"Deck: {cards.size} cards, {', '.join(s.name for s in spec.deck.suits)}.")
    if any(cards.points) and (spec.deck.card_points or spec.deck.suit_points):
        # Points by card or by suit: the cards worth anything, one by one.
        pts = ", ".join(f"{code}={p}" for code, p in zip(cards.codes, cards.points, strict=True) if p)
        out.append(f"Card points: {pts} ({sum(cards.points)} in all).")
    elif any(cards.points):
        pts = ", ".join(
            f"{cards.rank_codes[r]}={spec.deck.points.get(cards.rank_codes[r], 0)}"
            for r in range(len(cards.rank_codes))
        )
        out.append(f"Card points: {pts} ({sum(cards.points)} in all).")
    keys = [_trump_key(game, trump)] if trump is not None else list(cards.trump_keys())
    for key in keys:
        data = rules_data(game, cards.trump_code(key))
        label = spec.trump.none_name if key == NO_TRUMP else f"{cards.trump_code(key)} trumps"
        out.append("")
        out.append(f"With {label}:")
        if data["trump_order"]:
            order = [f"{c} ({data['promoted'][c]})" if c in data["promoted"] else c for c in data["trump_order"]]
            out.append(f"  trumps ({len(order)}), high to low: {' '.join(order)}")
        for suit, order in data["plain_orders"].items():
            out.append(f"  {suit}, high to low: {' '.join(order)}")
    rules = game.rules
    if rules.contracts:
        out.append("")
        out.append("Contracts, low to high: " + " < ".join(c.name for c in rules.contracts))
    out += _making_text(game)
    if spec.passing.cards:
        out += ["", f"Passing: {spec.passing.cards} cards, {', '.join(spec.passing.cycle)} ({spec.passing.order})."]
    obligations = [o.rule for o in spec.play.obligations]
    out.append("")
    out.append("Play obligations: " + (", ".join(obligations) if obligations else "none"))
    if spec.declarations:
        out.append(
            "Declarations: "
            + ", ".join(f"{d.name} ({'+'.join(d.ranks)} of {d.suit}, {d.points})" for d in spec.declarations)
        )
    out.append("")
    out.append(f"Scoring in {spec.scoring.unit}:")
    for var, formula in spec.scoring.vars.items():
        out.append(f"  {var} = {formula}")
    for o in (*spec.scoring.outcomes, *spec.scoring.bonuses):
        pays = "; ".join(
            f"{p.from_ + ' -> ' if p.from_ else ''}{p.to}: {p.amount}{' (split)' if p.split else ''}" for p in o.pay
        )
        scope = f" [{', '.join(c or 'no contract' for c in o.contracts)}]" if o.contracts else ""
        out.append(f"  {o.name}{scope}: when {o.when}: {pays or 'nothing'}")
    m = spec.match
    ends = []
    if m.target:
        ends.append(f"when a side reaches {m.target}")
    if m.end_when:
        ends.append(f"when {m.end_when} for a side")
    if m.deals:
        ends.append(f"after {m.deals} deal{'' if m.deals == 1 else 's'}")
    lowest = "; the lowest score wins" if m.winner == "lowest" else ""
    out.append(f"Match ends {' or '.join(ends) or 'never by itself'}{lowest}; ties: {m.tie_break}.")
    if spec.options:
        out.append("")
        out.append("Options:")
        for name, opt in spec.options.items():
            out.append(
                f"  {name} = {game.options.get(name, opt.default)} (choices: {', '.join(opt.choices)})"
                f"{' - ' + opt.doc if opt.doc else ''}"
            )
    return "\n".join(out)


def _making_text(game: GameLike) -> list[str]:
    """The lines of a rules summary on trumps made round the table (none for other games)."""
    making = game.rules.making
    if making is None:
        return []
    extras = [
        (making.taken_by_dealer, "the dealer takes up an accepted turned card and discards"),
        (making.dealer_must_name, "the dealer may not pass in the last round"),
        (making.alone, "the maker may go alone"),
        (making.defend_alone, "a defender may defend alone"),
    ]
    said = "; ".join(text for on, text in extras if on)
    rounds = ", ".join(making.rounds)
    return ["", f"Trumps made round the table, rounds: {rounds}" + (f" ({said})." if said else ".")]


def _seat(seat: int) -> str:
    return "pot" if seat < 0 else f"seat {seat}"


def seat_list(seats: tuple[int, ...] | list[int]) -> str:
    """Seats for a printout: ``"seat 2"`` for one, ``"seats 0, 2"`` for several."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return f"seats {', '.join(map(str, seats))}"


#: What a pass declines, by the phase it is made in (a pass in the auction reads "pass").
_DECLINED = {
    Phase.BIDDING.value: "pass",
    Phase.MAKING.value: "pass (makes no trumps)",
    Phase.ALONE.value: "does not go alone",
    Phase.DECLARE.value: "declares nothing",
    Phase.ANNOUNCE.value: "announces nothing",
}


def in_print_order(events: Sequence[Event]) -> list[Event]:
    """A step's events in the order a printout shows them: each deal's cards before its antes.

    A deal's antes are paid before its cards are dealt, in the step that
    ended the deal before (after its ``DealScored``); printed in that order
    they would read as part of the old deal. So a ``Dealt`` is moved to the
    start of its deal: just after the last ``DealScored`` before it, or to
    the start of the step.
    """
    out: list[Event] = []
    start = 0  # where the deal under way in this step begins in ``out``
    for event in events:
        if isinstance(event, Dealt):
            out.insert(start, event)
        else:
            out.append(event)
        if isinstance(event, DealScored):
            start = len(out)
    return out


def describe_event(event: Event) -> str | None:
    """One line for a match printout, or ``None`` for events not worth a line."""
    if isinstance(event, Dealt):
        return (
            f"\nDeal {event.deal + 1}, dealer seat {event.dealer}"
            + (f", turned {event.turned}" if event.turned else "")
            + "".join(f"\n  seat {s}: {' '.join(h)}" for s, h in enumerate(event.hands))
        )
    if isinstance(event, Misdealt):
        return f"Misdeal ({event.reason}); seat {event.dealer} deals again"
    if isinstance(event, Redeal):
        return "All passed; the cards are dealt again"
    if isinstance(event, Passed):
        return f"  seat {event.seat}: {_DECLINED.get(event.phase, 'pass')}"
    if isinstance(event, BidMade):
        return f"  seat {event.seat}: bid {event.contract}"
    if isinstance(event, TricksBid):
        return f"  seat {event.seat}: bids {event.tricks} trick{'' if event.tricks == 1 else 's'}"
    if isinstance(event, AuctionWon):
        return f"  seat {event.seat} plays {event.contract}{' (forced)' if event.forced else ''}"
    if isinstance(event, TrumpNamed):
        return f"  seat {event.seat} names trumps: {event.suit}"
    if isinstance(event, CardCalled):
        return f"  seat {event.seat} calls {event.card}"
    if isinstance(event, CardGiven):
        return f"  seat {event.seat} gives a card to seat {event.to}"
    if isinstance(event, CardPassed):
        return f"  seat {event.seat} passes a card to seat {event.to}"
    if isinstance(event, PassingDone):
        return f"  the passed cards change hands, each seat's to the seat {event.offset} on"
    if isinstance(event, TurnedTaken):
        return f"  seat {event.seat} takes up {event.card}"
    if isinstance(event, Discarded):
        return f"  seat {event.seat} discards {event.card}"
    if isinstance(event, WentAlone):
        return f"  seat {event.seat} plays alone"
    if isinstance(event, Announced):
        return f"  seat {event.seat} announces {event.name}"
    if isinstance(event, Declared):
        return f"  seat {event.seat} declares {event.name} in {event.suit} ({event.points})"
    if isinstance(event, PartnerRevealed):
        return f"  seat {event.seat} is revealed as the partner ({event.card})"
    if isinstance(event, TrickWon):
        return f"  trick {event.number}: {' '.join(event.cards)} -> seat {event.seat}"
    if isinstance(event, Paid):
        return f"  {_seat(event.payer)} pays {event.amount} to {_seat(event.payee)} ({event.reason})"
    if isinstance(event, Awarded):
        return f"  {seat_list(event.seats)} score {event.points} ({event.reason})"
    if isinstance(event, DealScored):
        pot = f", pot {event.pot}" if event.pot else ""
        return f"  scores: {' '.join(str(x) for x in event.scoreboard)}{pot}"
    if isinstance(event, MatchEnded):
        return f"\nMatch over. Winners: {seat_list(event.winners)}. Final: " + ", ".join(
            f"seat {s} {x}" for s, x in enumerate(event.scoreboard)
        )
    if isinstance(event, CardPlayed):
        return None
    describe = getattr(event, "describe", None)  # a mechanism's event may say how it reads
    if isinstance(event, MechanismEvent) and callable(describe):
        return f"  {describe()}"
    return None
