"""The engine's fast constructors build the same frozen values as attrs' own ``__init__``."""

from __future__ import annotations

import attrs
import pytest

from trickrules.engine.events import Dealt, TrickWon
from trickrules.engine.fastinit import maker, twin_of
from trickrules.engine.state import DealInfo, MatchInfo, State, Tally


@pytest.mark.parametrize("cls", [DealInfo, Tally, MatchInfo, TrickWon, Dealt])
def test_maker_builds_the_same_frozen_value(cls: type) -> None:
    fields = attrs.fields(cls)
    values = [f.default if f.default is not attrs.NOTHING else (7,) for f in fields]
    values[0] = 3  # a field without a default gets a value of its own
    made = maker(cls)(*values)
    built = cls(*values)
    assert type(made) is cls
    assert made == built
    assert hash(made) == hash(built)
    assert tuple(getattr(made, f.name) for f in fields) == tuple(values)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        setattr(made, fields[0].name, 4)


def test_the_engine_records_have_twins() -> None:
    for cls in (State, DealInfo, Tally, MatchInfo, TrickWon):
        assert twin_of(cls) is not None, cls


def test_a_class_with_a_weakref_slot_falls_back_to_the_descriptors() -> None:
    @attrs.frozen
    class Weak:
        a: int
        b: str = "x"

    assert twin_of(Weak) is None
    made = maker(Weak)(1, "y")
    assert type(made) is Weak
    assert made == Weak(1, "y")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.a = 2  # type: ignore[misc]


def test_maker_refuses_what_it_cannot_build() -> None:
    @attrs.frozen(weakref_slot=False)
    class Checked:
        a: int = attrs.field(validator=attrs.validators.instance_of(int))

    with pytest.raises(TypeError):
        maker(Checked)
