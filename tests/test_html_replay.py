"""``trickrules replay LOG --html OUT``: the page, read as text and stepped through in headless Chromium.

The browser is driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``:
JSON messages ending in a NUL byte, commands on the browser's file descriptor 3 and
answers on 4), so no Python package is needed for it. Without Chromium the browser
test is skipped; every wait is bounded, so it cannot hang.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import random
import re
import select
import shutil
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import trickrules
from trickrules import svg
from trickrules.engine.events import DealScored, Dealt, MatchEnded, Paid, PartnerRevealed, TrickWon
from trickrules.engine.state import State
from trickrules.errors import ArgumentError
from trickrules.faces.cli import main
from trickrules.faces.html import _draw, _panel_pieces, replay_frames, replay_page, write_page
from trickrules.faces.render import describe_event
from trickrules.records.eventlog import EventLog
from trickrules.records.view import make_view
from trickrules.spec.loader import bundled_names

SEED = 20240518
SPECS = Path(__file__).resolve().parents[1] / "specs"
# Markup in a spec's title, an outcome's name and a suit's symbol: shown as text, never run.
HOSTILE = '</script><img src=x onerror="window.pwned=1">&amp;\'<!--'
SYMBOL = '<svg onload="window.pwned=2">'
# Any element that markup in a string would make: none may be in the page.
MARKUP = "img, #table svg svg, #panel :not(h2, ol, ul, li, table, tbody, tr, th, td, p)"
TIMEOUT = 30.0  # seconds for any one answer from the browser


@pytest.fixture(scope="module")
def match(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, EventLog]:
    """A Quadrille match of random legal play: its log file, its page written by the CLI, and the log."""
    state = trickrules.load("quadrille").new_match(seed=SEED)
    rng = random.Random(SEED)
    while not state.is_terminal:
        state = state.apply(rng.choice(state.legal_actions()))
    folder = tmp_path_factory.mktemp("replay")
    log_file, page = folder / "match.jsonl", folder / "match.html"
    log = EventLog.from_state(state)
    log.save(log_file)
    assert main(["replay", str(log_file), "--html", str(page)]) == 0
    return log_file, page, log


@pytest.fixture(scope="module")
def seat_page(match: tuple[Path, Path, EventLog]) -> Path:
    """The page of the same match as seat 1 saw it, written by the CLI."""
    log_file, page, _ = match
    out = page.with_name("seat1.html")
    assert main(["replay", str(log_file), "--html", str(out), "--seat", "1"]) == 0
    return out


def _data(page: str) -> dict[str, Any]:
    """The data of a page: its pieces, its frames and its panels."""
    found = re.search(r"<script type='application/json' id='frames'>(.*?)</script>", page, re.DOTALL)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def _deal_events(log: EventLog, deal: int) -> list[Any]:
    """The events of deal ``deal``: from the end of the one before (its ante comes first) to its ``DealScored``."""
    events = log.events
    scored = [n for n, e in enumerate(events) if isinstance(e, DealScored)]
    start = scored[deal - 1] + 1 if deal else 0
    return list(events[start : scored[deal] + 1])


# -- the page as text -----------------------------------------------------------------------------


def test_page_is_one_self_contained_file(match: tuple[Path, Path, EventLog]) -> None:
    _, page, _ = match
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    assert not re.search(r"<(?:link|img|iframe|object|embed)\b", text, re.IGNORECASE)
    assert not re.search(r"\b(?:src|href)\s*=", text, re.IGNORECASE)
    assert not re.search(r"url\(", text, re.IGNORECASE)
    # The only address is the SVG namespace's name, which nothing fetches.
    assert set(re.findall(r"https?://[^\s\"'\\]+", text)) == {"http://www.w3.org/2000/svg"}
    assert text.count("<script") == 2  # the frames (JSON) and the player, both inline
    for control in ("first", "prev", "next", "last", "seat"):
        assert f"id='{control}'" in text


def test_page_is_deterministic(match: tuple[Path, Path, EventLog], tmp_path: Path) -> None:
    log_file, page, _ = match
    again = tmp_path / "again.html"
    assert main(["replay", str(log_file), "--html", str(again)]) == 0
    assert again.read_bytes() == page.read_bytes()


def test_html_refuses_an_unwritable_path_before_replaying(
    match: tuple[Path, Path, EventLog], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log_file, _, _ = match
    assert main(["replay", str(log_file), "--html", str(tmp_path / "missing" / "page.html")]) == 2
    out, err = capsys.readouterr()
    assert "--html: " in err
    assert "no folder" in err
    assert out == ""  # refused before the log was replayed
    assert main(["replay", str(log_file), "--html", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err


def test_page_shows_the_pictures_svg_draws_byte_for_byte(match: tuple[Path, Path, EventLog], seat_page: Path) -> None:
    log_file, page, _ = match
    final = trickrules.replay_file(log_file)
    frames = replay_frames(final)
    for text, views in ((page.read_text(encoding="utf-8"), range(5)), (seat_page.read_text(encoding="utf-8"), [2])):
        data = _data(text)
        assert len(data["frames"]) == len(frames)
        for frame, row in zip(frames, data["frames"], strict=True):
            assert [_draw(data["pieces"], v) for v in row["views"]] == [
                svg.table(frame.pictures[v], styled=False) for v in views
            ]
            panel = _draw(data["pieces"], data["panels"][row["panel"]])
            assert panel.startswith("<h2>Bidding</h2>")
            assert panel.endswith("</table>") or "id='winners'" in panel
            assert (row["deal"], row["trick"], row["caption"]) == (frame.deal, frame.trick, frame.caption)


def test_page_stores_each_card_once_not_once_a_frame(match: tuple[Path, Path, EventLog]) -> None:
    log_file, page, _ = match
    text = page.read_text(encoding="utf-8")
    codes = trickrules.load("quadrille").cards.codes
    # Face up: the whole card drawn once (plain and outlined as a trick's winner), wherever it lies.
    assert max(text.count(f'data-card=\\"{code}\\"') for code in codes) <= 2
    frames = len(_data(text)["frames"])
    assert len(text) < 4_000 * frames  # about 37 kB a frame when every frame was stored whole
    assert len(text) < 10 * log_file.stat().st_size


def _seen_by(states: list[State], seat: int) -> set[str]:
    """The cards ``seat`` may know of at some step of ``states``: in its view, or in a trick won."""
    codes = set(states[0].game.cards.codes)
    seen = set()
    for state in states:
        seen |= codes & set(re.findall(r"[0-9A-Za-z]+", make_view(state, seat).to_json()))
        seen |= {c for e in state.last_events if isinstance(e, TrickWon) for c in e.cards}
    return seen


def _readable(page: str) -> str:
    """The page's text, then the text of its data decoded (where an escaped ``>`` is ``>`` again)."""
    return page + "\n" + json.dumps(_data(page), ensure_ascii=False)


def _named(word: str, text: str) -> bool:
    """Whether ``word`` is in ``text`` as a word (a card code, not part of a longer one)."""
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(word)}(?![0-9A-Za-z])", text) is not None


def _first_tricks(game: str, seed: int, tricks: int) -> list[State]:
    """The states of a match of random legal play until ``tricks`` tricks of its first deal are won."""
    state = trickrules.load(game).new_match(seed=seed)
    rng = random.Random(seed)
    states = [state]
    while sum(isinstance(e, TrickWon) for s in states for e in s.last_events) < tricks and not state.is_terminal:
        state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


@pytest.mark.parametrize("game", bundled_names())
def test_a_seat_page_holds_no_card_the_seat_has_not_seen(game: str) -> None:
    states = _first_tricks(game, SEED, 2)
    final = states[-1]
    above = _readable(replay_page(final))
    for seat in range(final.game.players):
        hidden = set(final.game.cards.codes) - _seen_by(states, seat)
        held = {c for s in range(final.game.players) if s != seat for c in final.hand(s)} & hidden
        assert held, "the test needs cards still hidden in the other hands"
        assert all(_named(c, above) for c in held)  # the page from above shows them: the test can see them
        page = _readable(replay_page(final, seat=seat))
        leaked = sorted(c for c in hidden if _named(c, page))
        assert not leaked, f"{game}: seat {seat}'s page names cards it never saw: {leaked}"
        assert "from above" not in page


def _secret_partner() -> State:
    """A Quadrille deal after its first trick, whose called King is held by another seat and not yet played."""
    game = trickrules.load("quadrille")
    for seed in range(200):
        state = game.new_match(seed=seed)
        rng = random.Random(seed)
        while state.deal.number == 0 and not state.is_terminal:
            d, won = state.deal, any(isinstance(e, TrickWon) for e in state.last_events)
            if won and d.partner is not None and d.partner != d.declarer:
                if not any(isinstance(e, PartnerRevealed) for e in EventLog.from_state(state).events):
                    return state
                break
            state = state.apply(rng.choice(state.legal_actions()))
    pytest.fail("no deal with a secret partner in 200 seeds")


def test_a_seat_page_keeps_a_secret_partner_secret() -> None:
    state = _secret_partner()
    partner = state.deal.partner
    assert _named("partner", _readable(replay_page(state)))
    assert _named("partner", _readable(replay_page(state, seat=partner)))
    for seat in set(range(4)) - {partner}:
        assert not _named("partner", _readable(replay_page(state, seat=seat))), f"seat {seat} sees the partner"


def test_a_seat_page_is_refused_for_a_seat_the_game_has_not(match: tuple[Path, Path, EventLog], tmp_path: Path) -> None:
    log_file, _, _ = match
    final = trickrules.replay_file(log_file)
    for seat in (4, -1):
        with pytest.raises(ArgumentError, match=f"seat must be a seat from 0 to 3, found {seat}"):
            replay_page(final, seat=seat)
        with pytest.raises(ArgumentError):
            write_page(final, tmp_path / "x.html", seat=seat)
    assert not (tmp_path / "x.html").exists()


def test_replay_seat_needs_html_and_a_seat_of_the_game(
    match: tuple[Path, Path, EventLog], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log_file, _, _ = match
    out = tmp_path / "seat.html"
    assert main(["replay", str(log_file), "--seat", "1"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["replay", str(log_file), "--html", str(out), "--seat", "4"]) == 2
    captured = capsys.readouterr()
    assert captured.err == "error: --seat must be a seat from 0 to 3, found 4.\n"
    assert "ok" not in captured.out.split()
    assert not out.exists()


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> tuple[State, Path, Path]:
    """Two deals of Manille whose title, outcome and spades' symbol are markup; its pages from above and seat 2."""
    text = (SPECS / "manille.toml").read_text(encoding="utf-8")
    text = re.sub(r"^title = .*$", lambda _: f"title = {json.dumps(HOSTILE)}", text, count=1, flags=re.MULTILINE)
    text = text.replace('name = "manille"', 'name = "hostile"', 1)
    text = text.replace('"deal won"', json.dumps(f"deal won {HOSTILE}"))
    text = text.replace('symbol = "\u2660"', f"symbol = {json.dumps(SYMBOL)}")
    folder = tmp_path_factory.mktemp("hostile")
    spec = folder / "hostile.toml"
    spec.write_text(text, encoding="utf-8")
    state = trickrules.load(str(spec)).new_match(seed=SEED)
    rng = random.Random(SEED)
    while sum(isinstance(e, DealScored) for e in EventLog.from_state(state).events) < 2:
        state = state.apply(rng.choice(state.legal_actions()))
    above, seat = folder / "above.html", folder / "seat.html"
    write_page(state, above)
    write_page(state, seat, seat=2)
    return state, above, seat


def test_markup_from_the_spec_is_escaped_in_the_page(hostile: tuple[State, Path, Path]) -> None:
    state, *pages = hostile
    assert state.game.title == HOSTILE
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert text.count("<script") == text.count("</script") == 2
        assert "<img" not in text
        assert "<svg" not in text  # every picture is in the data, its "<" written \u003c
        assert "<!--" not in text
        readable = _readable(text)
        assert "&lt;/script&gt;&lt;img src=x onerror=&quot;window.pwned=1&quot;&gt;&amp;amp;" in readable
        assert "&lt;svg onload=" in readable


# -- the page in a browser ------------------------------------------------------------------------


# Starts the browser with the two pipe ends on descriptors 3 and 4, where it expects them
# (each end first copied out of the way, in case it already sits on 3 or 4).
_ON_3_AND_4 = """
import os, sys
ends = [int(sys.argv[1]), int(sys.argv[2])]
copies = [os.dup(fd) for fd in ends]
os.dup2(copies[0], 3)
os.dup2(copies[1], 4)
for fd in {*ends, *copies} - {3, 4}:
    os.close(fd)
os.set_inheritable(3, True)  # dup2 onto itself (a copy that landed on 3) leaves it close-on-exec
os.set_inheritable(4, True)
os.execv(sys.argv[3], sys.argv[3:])
"""


class Browser:
    """Headless Chromium driven over the DevTools protocol on a pipe."""

    def __init__(self, binary: str, profile: Path) -> None:
        self.log_path = profile.with_name("chromium.log")
        self._log = self.log_path.open("wb")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        flags = "--headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking"
        command = [*flags.split(), "--remote-debugging-pipe", f"--user-data-dir={profile}", "--window-size=1400,900"]
        self.process = subprocess.Popen(
            [sys.executable, "-I", "-c", _ON_3_AND_4, str(to_browser_r), str(from_browser_w), binary, *command],
            pass_fds=(to_browser_r, from_browser_w),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self._log,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self.session = ""

    def close(self) -> None:
        for fd in (self._to_browser, self._from_browser):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self._log.close()

    def _message(self, deadline: float) -> dict[str, Any]:
        """The next message from the browser, waiting at most until ``deadline``."""
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the browser did not answer in time")
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if ready:
                chunk = os.read(self._from_browser, 1 << 20)
                if not chunk:
                    tail = self.log_path.read_text(errors="replace")[-2000:]
                    raise ConnectionError(f"the browser closed its pipe; its log ends:\n{tail}")
                self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        data: dict[str, Any] = json.loads(message)
        return data

    def call(self, method: str, params: dict[str, Any] | None = None, *, page: bool = True) -> dict[str, Any]:
        """Send a command (to the page's session unless ``page`` is false) and return its result."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if page:
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT
        while True:
            answer = self._message(deadline)
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                result: dict[str, Any] = answer["result"]
                return result

    def open(self, url: str) -> None:
        """Open ``url`` in a new tab and wait until its page has run its script."""
        target = self.call("Target.createTarget", {"url": "about:blank"}, page=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True}, page=False)[
            "sessionId"
        ]
        self.call("Page.navigate", {"url": url})
        self.wait_for("document.readyState === 'complete' && document.getElementById('caption').dataset.frame === '0'")

    def js(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str) -> None:
        deadline = time.monotonic() + TIMEOUT
        while not self.js(expression):
            if time.monotonic() > deadline:
                raise TimeoutError(f"still false after {TIMEOUT} s: {expression}")
            time.sleep(0.05)


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Browser]:
    binary = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
    if binary is None:
        pytest.skip("Chromium is not installed (apt-get install chromium): the replay page was not tried in a browser")
    session = Browser(binary, tmp_path / "profile")
    try:
        yield session
    finally:
        session.close()


def _caption(b: Browser) -> dict[str, int]:
    data = b.js("JSON.stringify(document.getElementById('caption').dataset)")
    return {k: int(v) for k, v in json.loads(data).items()}


def _click(b: Browser, button: str) -> None:
    before = b.js("document.getElementById('caption').dataset.frame")
    b.js(f"document.getElementById('{button}').click()")
    b.wait_for(f"document.getElementById('caption').dataset.frame !== '{before}'")


def _choose(b: Browser, value: str) -> None:
    """Pick ``value`` in the page's seat selector, as a person would."""
    b.js(
        "(() => { const s = document.getElementById('seat'); "
        f"s.value = '{value}'; s.dispatchEvent(new Event('change')); }})()"
    )
    seen = "from above" if value == "above" else f"from seat {value}"
    b.wait_for(f"document.querySelector('#table svg').getAttribute('aria-label').endsWith('{seen}')")


def _seat_cards(b: Browser) -> dict[int, list[str]]:
    return {
        int(k): v
        for k, v in b.js(
            "Object.fromEntries([...document.querySelectorAll('#table .seat')].map("
            "g => [g.dataset.seat, [...g.querySelectorAll('[data-card]')].map(c => c.dataset.card)]))"
        ).items()
    }


def _trick_cards(b: Browser) -> list[str]:
    cards: list[str] = b.js("[...document.querySelectorAll('#table .trick [data-card]')].map(c => c.dataset.card)")
    return cards


def _score_rows(b: Browser) -> list[list[int]]:
    rows = b.js(
        "[...document.querySelectorAll('#scores tr[data-row]')].map("
        "r => [...r.querySelectorAll('td[data-seat]')].map(td => td.textContent))"
    )
    return [[int(x) for x in row] for row in rows]


def test_page_steps_through_the_first_deal_with_its_own_controls(
    match: tuple[Path, Path, EventLog], browser: Browser, tmp_path: Path
) -> None:
    _, page, log = match
    events = _deal_events(log, 0)
    dealt = [e for e in events if isinstance(e, Dealt)][-1]
    tricks = [e for e in events if isinstance(e, TrickWon)]
    browser.open(page.as_uri())
    frames = browser.js("JSON.parse(document.getElementById('frames').textContent).frames.length")

    # Frame 0: the deal as dealt, every hand face up from above.
    assert _caption(browser) == {"frame": 0, "deal": 0, "trick": 0}
    assert browser.js("document.getElementById('prev').disabled") is True
    assert {s: sorted(cards) for s, cards in _seat_cards(browser).items()} == {
        s: sorted(hand) for s, hand in enumerate(dealt.hands)
    }

    # Step to each trick in turn: the trick on the table and the hands left are the log's.
    played: set[str] = set()
    shot = tmp_path / "replay.png"
    for trick in tricks:
        for _ in range(4):  # past the bidding's frame, if any, to this trick
            _click(browser, "next")
            if _caption(browser)["trick"] == trick.number:
                break
        caption = _caption(browser)
        assert (caption["deal"], caption["trick"]) == (0, trick.number)
        assert _trick_cards(browser) == list(trick.cards)
        played |= set(trick.cards)
        assert {s: sorted(cards) for s, cards in _seat_cards(browser).items()} == {
            s: sorted(set(hand) - played) for s, hand in enumerate(dealt.hands)
        }
        if trick.number == 3:  # seen from seat 1: its own hand only, the others as counts
            _choose(browser, "1")
            seats = _seat_cards(browser)
            assert sorted(seats[1]) == sorted(set(dealt.hands[1]) - played)
            assert all(seats[s] == [] for s in (0, 2, 3))
            counts = browser.js("[...document.querySelectorAll('#table .seat')].map(g => Number(g.dataset.count))")
            assert counts == [len(set(h) - played) for h in dealt.hands]
            table_html = browser.js("document.getElementById('table').innerHTML")
            for s in (0, 2, 3):
                for card in set(dealt.hands[s]) - played:
                    assert f'data-card="{card}"' not in table_html
            shot.write_bytes(base64.b64decode(browser.call("Page.captureScreenshot", {"format": "png"})["data"]))
            _choose(browser, "above")

    # The last trick's frame: the deal's payments and the scores after it.
    paid = [describe_event(e) for e in events if isinstance(e, Paid)]
    lines = browser.js("[...document.querySelectorAll('#payments li')].map(li => li.textContent)")
    assert lines[: len(paid)] == [(line or "").strip() for line in paid]
    scored = events[-1]
    assert isinstance(scored, DealScored)
    assert lines[-1] == f"outcome: {scored.outcome}"
    assert _score_rows(browser)[-1] == list(scored.scoreboard)

    # Last, previous, first: the match's end, then back to the start.
    _click(browser, "last")
    assert _caption(browser)["frame"] == frames - 1
    ended = log.events[-1]
    assert isinstance(ended, MatchEnded)
    assert _score_rows(browser)[-1] == list(ended.scoreboard)
    winners = browser.js("document.getElementById('winners').textContent")
    assert all(str(s) in winners for s in ended.winners)
    assert browser.js("document.getElementById('next').disabled") is True
    _click(browser, "prev")
    assert _caption(browser)["frame"] == frames - 2
    _click(browser, "first")
    assert _caption(browser) == {"frame": 0, "deal": 0, "trick": 0}

    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert width >= svg.TABLE_WIDTH
    assert height >= 600
    assert len(data) > 20_000  # a drawn table, not a blank page


def _key(b: Browser, key: str) -> None:
    """Press ``key`` on the page, as a person would, and wait for the frame to change."""
    before = b.js("document.getElementById('caption').dataset.frame")
    b.js(f"document.dispatchEvent(new KeyboardEvent('keydown', {{key: '{key}', bubbles: true}}))")
    b.wait_for(f"document.getElementById('caption').dataset.frame !== '{before}'")


def _shows(b: Browser, where: str, expected: str) -> bool:
    """Whether the element ``where`` holds what the browser makes of the markup ``expected``."""
    return bool(
        b.js(
            f"(() => {{ const d = document.createElement('div'); d.innerHTML = {json.dumps(expected)}; "
            f"return d.innerHTML === document.getElementById('{where}').innerHTML; }})()"
        )
    )


def test_every_frame_in_the_browser_is_the_picture_svg_draws(
    match: tuple[Path, Path, EventLog], seat_page: Path, browser: Browser
) -> None:
    log_file, page, _ = match
    final = trickrules.replay_file(log_file)
    frames = replay_frames(final)
    for url, views in ((page.as_uri(), [("above", 0), ("1", 2)]), (seat_page.as_uri(), [("1", 2)])):
        browser.open(url)
        for n, frame in enumerate(frames):
            if n:
                _click(browser, "next")
            assert _caption(browser) == {"frame": n, "deal": frame.deal, "trick": frame.trick}
            for value, v in views:
                _choose(browser, value)
                assert _shows(browser, "table", svg.table(frame.pictures[v], styled=False)), (url, n, value)
            assert _shows(browser, "panel", "".join(_panel_pieces(frame.panel, 4))), (url, n)


def test_a_seat_page_steps_through_the_match_as_the_seat_saw_it(
    match: tuple[Path, Path, EventLog], seat_page: Path, browser: Browser
) -> None:
    _, _, log = match
    dealt = [e for e in _deal_events(log, 0) if isinstance(e, Dealt)][-1]
    browser.open(seat_page.as_uri())
    frames = browser.js("JSON.parse(document.getElementById('frames').textContent).frames.length")
    assert browser.js("[...document.getElementById('seat').options].map(o => o.value)") == ["1"]
    assert browser.js("document.querySelector('#table svg').getAttribute('aria-label')") == "the table from seat 1"
    assert _seat_cards(browser) == {0: [], 1: list(dealt.hands[1]), 2: [], 3: []}
    counts = browser.js("[...document.querySelectorAll('#table .seat')].map(g => Number(g.dataset.count))")
    assert counts == [len(h) for h in dealt.hands]
    _key(browser, "ArrowRight")
    assert _caption(browser)["frame"] == 1
    _key(browser, "End")
    assert _caption(browser)["frame"] == frames - 1
    assert browser.js("document.getElementById('next').disabled") is True
    _key(browser, "ArrowLeft")
    assert _caption(browser)["frame"] == frames - 2
    _key(browser, "Home")
    assert _caption(browser) == {"frame": 0, "deal": 0, "trick": 0}


def test_markup_from_the_spec_shows_as_text_in_the_browser(hostile: tuple[State, Path, Path], browser: Browser) -> None:
    _, above, seat = hostile
    for page in (above, seat):
        browser.open(page.as_uri())
        frames = browser.js("JSON.parse(document.getElementById('frames').textContent).frames.length")
        assert browser.js("document.querySelector('h1').textContent").startswith(f"{HOSTILE}: replay")
        shown = set()
        for n in range(frames):
            if n:
                _click(browser, "next")
            shown |= set(browser.js("[...document.querySelectorAll('#table text, #panel li')].map(t => t.textContent)"))
            assert browser.js(f"document.querySelectorAll('{MARKUP}').length") == 0
            assert browser.js("document.scripts.length") == 2
        assert browser.js("typeof window.pwned") == "undefined"
        assert HOSTILE in shown  # the title in the notes, from above and from a seat (a view is drawn with its game)
        assert SYMBOL in shown  # a spade's symbol
        assert any(HOSTILE in line for line in shown)  # the outcome in the payments


def test_a_spec_of_ones_own_named_as_a_bundled_game_is_drawn_as_itself(tmp_path: Path) -> None:
    """A spec sharing a bundled game's name keeps its own title and seating in every seat's picture and the page."""
    text = (Path(__file__).resolve().parents[1] / "specs" / "manille.toml").read_text(encoding="utf-8")
    text = text.replace('title = "Manille"', 'title = "Manille of my club"').replace(
        'direction = "counterclockwise"', 'direction = "clockwise"'
    )
    spec = tmp_path / "manille.toml"
    spec.write_text(text, encoding="utf-8")
    game = trickrules.load(str(spec))
    state = game.new_match(seed=2)
    for _ in range(6):
        state = state.apply(state.legal_actions()[0])
    for seat in range(game.players):
        picture = make_view(state, seat).picture(game=game)
        assert picture.title == "Manille of my club"
        assert picture.clockwise
        bundled = make_view(state, seat).picture()  # by the name alone: the bundled game's looks
        assert bundled.title == "Manille"
        assert not bundled.clockwise
    with pytest.raises(ArgumentError, match="not of"):
        make_view(state, 0).picture(game=trickrules.load("quadrille"))
    page = replay_page(state)
    assert "Manille of my club" in page
    assert ">Manille<" not in page
