"""The game between tables without a broker: the host orders it, guests follow it exactly, and
nothing from anyone else (or replayed) changes it."""

from __future__ import annotations

import random

import pytest

from sudoku_table.network.codes import SeatKeys
from sudoku_table.network.hosting import Declined, Diverged, GameLine, Guest, Host
from sudoku_table.network.sealing import HostKey, Refused, mac
from sudoku_table.rules.game import variant_class


def _tables(variant: str = "classic-sudoku", players: int = 2) -> tuple[Host, Guest, SeatKeys]:
    game = variant_class(variant)(players, {})
    seat = SeatKeys.new(1)
    host = Host(GameLine.start(game), HostKey(), {1: seat.proposing})
    guest = Guest(GameLine.start(variant_class(variant)(players, {})), host.key.public())
    return host, guest, seat


def test_a_game_played_at_two_tables_is_the_same_game_at_every_moment() -> None:
    host, guest, seat = _tables()
    rng = random.Random(5)
    counter = 0
    for _ in range(30):
        state = host.line.state
        if state.over:
            break
        action = rng.choice(list(host.line.game.legal_actions(state)))
        if host.line.game.actor(state, action) == 1:
            counter += 1
            entry = host.propose(mac(seat.proposing, {"seat": 1, "n": counter,
                                                      "at": len(host.line.actions),
                                                      "action": action.to_json()}))
        else:
            entry = host.act(action)
        assert [e["seq"] for e in guest.receive(entry)] == [entry["seq"]]
        assert guest.line.hash() == host.line.hash()
    assert guest.line.actions == host.line.actions


def test_late_duplicated_and_reordered_entries_change_nothing() -> None:
    host, guest, _seat = _tables()
    rng = random.Random(2)
    for _ in range(6):
        state = host.line.state
        action = next(a for a in host.line.game.legal_actions(state)
                      if host.line.game.actor(state, a) == 0) \
            if state.to_move == 0 else None
        if action is None:
            host.line.apply("action", rng.choice(list(host.line.game.legal_actions(state)))
                            .to_json())  # a stand-in for the other seat: the host's own line
            host.entries.append(host.key.sign({"seq": len(host.entries) + 1, "kind": "action",
                                               "data": host.line.actions[-1].to_json(),
                                               "hash": host.line.hash()}))
        else:
            host.act(action)
    entries = host.since(1)
    shuffled = entries[::-1] + entries[:3]
    applied = []
    for entry in shuffled:
        applied += [e["seq"] for e in guest.receive(entry)]
    assert applied == [e["seq"] for e in entries]
    assert guest.line.hash() == host.line.hash()


def _proposal(seat: SeatKeys, n: int, at: int, **body: object) -> dict[str, object]:
    return mac(seat.proposing, {"seat": seat.seat, "n": n, "at": at, **body})


def test_a_proposal_not_from_the_seats_table_or_replayed_is_refused_and_changes_nothing() -> None:
    host, _guest, seat = _tables()
    first = next(iter(host.line.game.legal_actions(host.line.state)))
    host.act(first)
    second = next(iter(host.line.game.legal_actions(host.line.state)))
    with pytest.raises(Refused, match="another table"):
        host.act(second)  # seat 1's turn: its action comes from its own table
    stranger = SeatKeys(1, b"x" * 16)
    with pytest.raises(Refused, match="not from the table"):
        host.propose(_proposal(stranger, 1, 1, action=second.to_json()))
    proposal = _proposal(seat, 1, 1, action=second.to_json())
    host.propose(proposal)
    before = list(host.entries)
    with pytest.raises(Refused):
        host.propose(proposal)  # the same again: a replay
    assert host.entries == before


@pytest.mark.parametrize("why", ["out of turn", "illegal", "late", "not its own undo"])
def test_a_seats_proposal_that_does_not_count_is_answered_and_changes_nothing(why: str) -> None:
    host, guest, seat = _tables()
    legal = next(iter(host.line.game.legal_actions(host.line.state)))
    if why == "out of turn":  # seat 0 is to move
        proposal = _proposal(seat, 1, 0, action=legal.to_json())
    else:
        host.act(legal)
        taken = next(iter(host.line.state.board))
        proposal = {"illegal": _proposal(seat, 1, 1, action={"type": "place", "cell": taken,
                                                              "number": 1}),
                    "late": _proposal(seat, 1, 0, action=legal.to_json()),
                    "not its own undo": _proposal(seat, 1, 1, undo=True)}[why]
    state = host.line.state
    with pytest.raises(Declined) as declined:
        host.propose(proposal)
    assert host.line.state is state
    answer = host.refuse(declined.value)
    assert answer["kind"] == "refused" and answer["by"] == {"seat": 1, "n": 1}
    for entry in host.entries:
        guest.receive(entry)
    assert guest.line.hash() == host.line.hash()
    with pytest.raises(Refused):
        host.propose(proposal)  # answered once: the same counter may not come again


def test_a_seat_takes_back_its_own_last_action_through_the_host() -> None:
    host, guest, seat = _tables()
    host.act(next(iter(host.line.game.legal_actions(host.line.state))))
    own = next(iter(host.line.game.legal_actions(host.line.state)))
    host.propose(_proposal(seat, 1, 1, action=own.to_json()))
    entry = host.propose(_proposal(seat, 2, 2, undo=True))
    assert entry["kind"] == "undo" and len(host.line.actions) == 1
    for entry in host.entries:
        guest.receive(entry)
    assert guest.line.actions == host.line.actions


def test_an_entry_not_signed_by_the_host_or_leading_elsewhere_is_caught() -> None:
    host, guest, _seat = _tables()
    entry = host.act(next(iter(host.line.game.legal_actions(host.line.state))))
    forged = HostKey().sign({k: v for k, v in entry.items() if k != "sig"})
    with pytest.raises(Refused):
        guest.receive(forged)
    assert guest.line.actions == []
    wrong = host.key.sign({**{k: v for k, v in entry.items() if k != "sig"}, "hash": "0" * 32})
    with pytest.raises(Diverged):
        guest.receive(wrong)


def test_an_undo_is_the_hosts_entry_and_every_table_takes_it_back() -> None:
    host, guest, _seat = _tables()
    for entry in (host.act(next(iter(host.line.game.legal_actions(host.line.state)))),
                  host.undo()):
        guest.receive(entry)
    assert guest.line.actions == host.line.actions == []
    assert guest.line.hash() == host.line.hash()


def test_a_remote_seat_plays_only_the_card_the_host_dealt_it() -> None:
    host, _guest, seat = _tables()
    host.act(next(iter(host.line.game.legal_actions(host.line.state))))
    legal = [a for a in host.line.game.legal_actions(host.line.state)
             if getattr(a, "number", None) is not None]
    dealt = legal[0].number  # type: ignore[attr-defined]
    host.cards[(1, 1)] = dealt
    other = next(a for a in legal if a.number != dealt)  # type: ignore[attr-defined]
    with pytest.raises(Declined, match="not the card"):
        host.propose(_proposal(seat, 1, 1, action=other.to_json()))
    entry = host.propose(_proposal(seat, 2, 1, action=legal[0].to_json()))
    assert entry["kind"] == "action"
