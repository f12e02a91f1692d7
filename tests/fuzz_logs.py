"""Fuzzing the log and view readers: near-valid texts built from real logs and views.

The strategies start from genuine logs (short seeded matches of bundled
games, some signed) and genuine views, and mutate them the way a corrupt file
or an attacker would: a line dropped, repeated or moved; a value replaced by
another of any JSON type, by a huge number, a numeric string or a deep
nesting; a key renamed or added; bytes flipped; the text cut short. The
property: every input ends in success or a
:class:`~trickrules.errors.TrickrulesError`, never another exception, and
quickly. ``tests/test_fuzz_logs.py`` runs it with a fixed budget;
``benchmarks/fuzz.py --target log`` runs it long.
"""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

from hypothesis import strategies as st

import trickrules
from fuzz_specs import json_paths, json_set
from trickrules import EventLog, View
from trickrules.errors import TrickrulesError

__all__ = ["KEY", "check_log_text", "check_view_text", "log_texts", "view_texts"]

#: The key the signed sample logs are signed with.
KEY = b"fuzzing key, sixteen bytes or more"
_GAMES = (("manille", {"match_end": "12"}), ("cuatrola", {"target": "11"}), ("quadrille", {"deals": "4"}))


@cache
def _samples() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Genuine log texts (whole and partial, plain and signed) and view texts."""
    logs: list[str] = []
    views: list[str] = []
    for name, options in _GAMES:
        game = trickrules.load(name, options)
        for seed in (1, 2):
            rng = random.Random(seed)
            state = game.new_match(seed=seed if seed == 1 else 2**100 + seed)
            steps = 0
            while not state.is_terminal and steps < 400:
                state = state.apply(rng.choice(state.legal_actions()))
                steps += 1
            log = EventLog.from_state(state)
            logs.append(log.to_json())
            logs.append(log.sign(KEY).to_json())
            views.extend(View.from_state(state, seat).to_json() for seat in range(game.players))
    return tuple(logs), tuple(views)


_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.sampled_from([0, -1, 1, 2**53, 2**53 + 1, -(2**53) - 1, 10**400])
    | st.text(max_size=12)
    | st.sampled_from(["AS", "10H", "?", "dealer", "pass", "9007199254740993", "007", "-0", "", "\x00", "1e5"])
)
_json_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@st.composite
def _mutated_line(draw: st.DrawFn, line: str) -> str:
    """One line of a log or a view, its JSON changed in one place."""
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):  # mutated already beyond reading: cut it instead
        return line[: draw(st.integers(0, len(line)))]
    paths = json_paths(data)
    path: tuple[Any, ...] = draw(st.sampled_from(paths[1:])) if len(paths) > 1 and draw(st.integers(0, 9)) else ()
    kind = draw(st.sampled_from(["value", "key", "drop", "deep", "same"]))
    if kind == "value" or (kind in ("key", "drop") and not path):
        data = json_set(data, path, draw(_json_values))
    elif kind in ("key", "drop"):
        parent_path, last = path[:-1], path[-1]
        parent: Any = data
        for step in parent_path:
            parent = parent[step]
        if isinstance(parent, dict):
            body = dict(parent)
            value = body.pop(last)
            if kind == "key":
                body[draw(st.text(max_size=8))] = value
            data = json_set(data, parent_path, body)
        else:
            data = json_set(data, parent_path, [v for i, v in enumerate(parent) if i != last])
    elif kind == "deep":
        depth = draw(st.integers(1, 5000))
        marker = "\u0001deep\u0001"
        text = json.dumps(json_set(data, path, marker), separators=(",", ":"))
        return text.replace(json.dumps(marker), "[" * depth + "]" * depth)
    return json.dumps(data, separators=(",", ":"))


@st.composite
def _mutated_text(draw: st.DrawFn, text: str) -> str | bytes:
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["line", "line", "line", "drop", "repeat", "move", "cut", "bytes", "insert"]))
        if not lines:
            break
        n = draw(st.integers(0, 2**20)) % len(lines)  # spread: a plain range would favour line 1
        if kind == "line":
            lines[n] = draw(_mutated_line(lines[n]))
        elif kind == "drop":
            del lines[n]
        elif kind == "repeat":
            lines.insert(n, lines[n])
        elif kind == "move":
            m = draw(st.integers(0, 2**20)) % len(lines)
            lines[n], lines[m] = lines[m], lines[n]
        elif kind == "cut":
            cut = draw(st.integers(0, max(0, len(lines[n]) - 1)))
            lines = [*lines[:n], lines[n][:cut]]
        elif kind == "insert":
            lines.insert(n, json.dumps(draw(_json_values)))
        else:
            raw = bytearray("\n".join(lines).encode("utf-8"))
            if not raw:  # earlier cuts left nothing to change
                break
            at = draw(st.integers(0, len(raw) - 1))
            raw[at] = draw(st.integers(0, 255))
            return bytes(raw)
    return "\n".join(lines) + "\n"


@st.composite
def log_texts(draw: st.DrawFn) -> str | bytes:
    """A log text: a genuine one mutated in one to three places, or arbitrary JSON lines."""
    logs, _ = _samples()
    if draw(st.integers(0, 29)) == 0:
        return "\n".join(json.dumps(v) for v in draw(st.lists(_json_values, min_size=1, max_size=4)))
    return draw(_mutated_text(draw(st.sampled_from(logs))))


@st.composite
def view_texts(draw: st.DrawFn) -> str | bytes:
    """A view text: a genuine one with one value, key or byte changed."""
    _, views = _samples()
    view = draw(st.sampled_from(views))
    if draw(st.booleans()):
        return draw(_mutated_line(view))
    raw = bytearray(view.encode("utf-8"))
    at = draw(st.integers(0, len(raw) - 1))
    raw[at] = draw(st.integers(0, 255))
    return bytes(raw)


def check_log_text(text: str | bytes) -> str:
    """Read and replay ``text`` (plain, partial, with the key): each ends in success or a library error.

    Returns what happened, for counting ("ok" or the error's class name).
    """
    outcome = "ok"
    for attempt in (
        lambda: EventLog.from_json(text),
        lambda: trickrules.replay(text, partial=True),
        lambda: trickrules.replay(text, key=KEY, partial=True),
    ):
        try:
            attempt()
        except TrickrulesError as exc:
            outcome = type(exc).__name__
    return outcome


def check_view_text(text: str | bytes) -> str:
    """Read ``text`` as a view: success, or a library error."""
    try:
        View.from_json(text)
    except TrickrulesError as exc:
        return type(exc).__name__
    return "ok"
