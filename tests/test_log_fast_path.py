"""Reading a log's lines takes a fast path for a line whose rest was read strictly before, with the same result.

``records.logcodec`` keeps the entries it has read strictly by the text after
their sequence number; a later line with that same rest is the same entry with
another number. These tests check that the fast path gives exactly what the
strict reading gives, and that nothing the strict reading refuses gets through.
"""

from __future__ import annotations

import random

import pytest

import trickrules
from trickrules import EventLog, LogFormatError
from trickrules.records import logcodec


def _logs() -> list[str]:
    out = []
    for name in ("quadrille", "hearts", "cuatrola"):
        game = trickrules.load(name)
        state = game.new_match(seed=4)
        rng = random.Random(4)
        while not state.is_terminal and state.match.deals_done < 2:
            legal = state.legal_actions()
            state = state.apply(legal[int(rng.random() * len(legal))])
        out.append(EventLog.from_state(state).to_json())
    return out


def _entries(text: str) -> list[logcodec.LogEntry]:
    _, entries = logcodec.entries_of(logcodec.text_lines(text))
    return list(entries)


def test_the_fast_path_reads_every_line_as_the_strict_reading_does() -> None:
    texts = _logs()
    logcodec._SEEN.clear()
    strict = [_entries(text) for text in texts]  # read cold: every line strictly (and kept)
    assert logcodec._SEEN
    fast = [_entries(text) for text in texts]  # read warm: every line by the fast path
    assert fast == strict
    for text in texts:  # and replaying is unchanged: cold against warm
        logcodec._SEEN.clear()
        cold = trickrules.replay(text, partial=True)
        warm = trickrules.replay(text, partial=True)
        assert warm == cold
        assert warm.entries() == cold.entries()


@pytest.mark.parametrize(
    ("number", "reason"),
    [
        ("01", "not valid JSON"),  # a leading zero: not a JSON number
        ("9007199254740993", "out of range"),  # past 2**53
    ],
)
def test_a_line_the_strict_reading_refuses_is_refused_though_its_rest_was_seen(number: str, reason: str) -> None:
    text = _logs()[0]
    header, first, *rest = text.splitlines()
    _entries(text)  # every line's rest is now kept
    assert first.startswith('{"seq":0,')
    forged = first.replace('{"seq":0,', '{"seq":' + number + ",", 1)
    with pytest.raises(LogFormatError, match=reason):
        _entries("\n".join([header, forged, *rest]) + "\n")


def test_a_repeated_seq_in_the_rest_is_still_refused() -> None:
    text = _logs()[0]
    header, first, *rest = text.splitlines()
    _entries(text)
    forged = first[:-1] + ',"seq":5}'
    with pytest.raises(LogFormatError, match="repeats the key"):
        _entries("\n".join([header, forged, *rest]) + "\n")
