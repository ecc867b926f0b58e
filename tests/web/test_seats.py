"""Every player's own phone: joining a seat, acting for it alone, private hands, the deal.

A hidden card must reach its own seat's phone and nothing else: these tests read every view,
live view and record another device can get while the table deals, and look for the card.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from sudoku_table.web.seating import Seating

from .helpers import first_live_view
from .helpers import put as sim_put


def _join(client: FlaskClient, seat: int, **headers: str) -> dict[str, Any]:
    answer = client.post(f"/api/seats/{seat}/join", json={}, headers=headers)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def _phone(client: FlaskClient, seat: int) -> str:
    """A phone that opened seat ``seat``'s joining link: its own token."""
    invite = _join(client, seat)
    claimed = client.post("/api/seats/claim", json={"token": invite["token"]}).get_json()
    assert claimed["seat"] == seat
    return claimed["token"]


def _as(token: str) -> dict[str, str]:
    return {"X-Seat-Token": token}


def _kosmos(client: FlaskClient, players: int = 3, **extra: Any) -> dict[str, Any]:
    answer = client.post("/api/game", json={"variant": "classic-sudoku", "players": players,
                                            "deal": True, **extra})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


@pytest.mark.integration
def test_a_joined_phone_plays_its_seat_and_sees_its_own_card(client: FlaskClient) -> None:
    _kosmos(client)
    phones = [_phone(client, seat) for seat in range(3)]
    shared = client.get("/api/state").get_json()["table"]
    assert shared["deal"] is True and shared["phones"] == [0, 1, 2]
    assert "hand" not in shared and "seat" not in shared
    mine = client.get("/api/state", headers=_as(phones[0])).get_json()["table"]
    assert mine["seat"] == 0 and isinstance(mine["hand"], int) and mine["hand_do"] == "place"
    other = client.get("/api/state", headers=_as(phones[1])).get_json()["table"]
    assert other["seat"] == 1 and other["hand"] is None  # not its turn: nothing dealt yet
    assert "take the card the table dealt you" in shared["next_text"]


@pytest.mark.integration
def test_a_piece_put_down_becomes_the_dealt_number(client: FlaskClient) -> None:
    _kosmos(client)
    phone = _phone(client, 0)
    card = client.get("/api/state", headers=_as(phone)).get_json()["table"]["hand"]
    square = _free_square_for(client, card)
    sim_put(client, square)
    board = client.get("/api/state").get_json()["game"]["cells"]
    assert board[square]["number"] == card
    assert client.get("/api/state").get_json()["game"]["to_move"] == 1


def _free_square_for(client: FlaskClient, number: int) -> str:
    """An empty square where ``number`` may go now (a new KOSMOS board takes any number)."""
    for row in "abcdefghi":
        for col in range(1, 10):
            square = f"{row}{col}"
            if square not in client.get("/api/state").get_json()["game"]["cells"]:
                return square
    raise AssertionError("no free square")


@pytest.mark.integration
def test_a_phone_acts_only_in_its_own_turn_and_never_as_the_shared_panel(
        client: FlaskClient) -> None:
    _kosmos(client)
    second = _phone(client, 1)
    before = client.get("/api/state").get_json()["game"]
    refused = client.post("/api/input", json={"type": "end_turn"}, headers=_as(second))
    assert refused.status_code == 403 and "not your turn yet" in refused.get_json()["error"]
    for path, body in (("/api/game", {"variant": "classic-sudoku"}),
                       ("/api/table/brightness", {"level": 0.5}),
                       ("/api/seats/0/join", {})):
        answer = client.post(path, json=body, headers=_as(second))
        assert answer.status_code == 403, path
        assert "own seat only" in answer.get_json()["error"]
    undo = client.post("/api/input", json={"type": "undo"}, headers=_as(second))
    assert undo.status_code == 403 and "own seat only" in undo.get_json()["error"]
    assert client.post("/api/hint", json={}, headers=_as(second)).status_code == 403
    assert client.get("/api/state").get_json()["game"] == before


@pytest.mark.integration
def test_a_forged_or_handed_on_token_is_refused(client: FlaskClient) -> None:
    _kosmos(client)
    old = _phone(client, 0)
    forged = client.get("/api/state", headers=_as("x" * 32))
    assert forged.status_code == 403 and forged.get_json()["seat_lost"] is True
    new = _phone(client, 0)  # the seat handed to another phone
    assert client.get("/api/state", headers=_as(old)).status_code == 403
    assert client.get("/api/state", headers=_as(new)).get_json()["table"]["seat"] == 0
    invite = _join(client, 1)
    first = client.post("/api/seats/claim", json={"code": invite["code"].lower()})
    assert first.status_code == 200
    again = client.post("/api/seats/claim", json={"code": invite["code"]})
    assert again.status_code == 404  # a code is good for one phone


@pytest.mark.integration
def test_a_lost_phones_seat_is_taken_back_with_the_pin(app: Any, client: FlaskClient) -> None:
    app.config["PANEL_PIN"] = "4321"
    app.extensions["sudoku_table"].pin.pin = "4321"
    pin = {"X-Table-Pin": "4321"}
    client.post("/api/game", json={"variant": "classic-sudoku", "players": 2, "deal": True},
                headers=pin)
    assert client.post("/api/seats/0/join", json={}).status_code == 401
    invite = _join(client, 0, **pin)
    token = client.post("/api/seats/claim", json={"token": invite["token"]}).get_json()["token"]
    assert client.post("/api/seats/0/leave", json={}).status_code == 401
    left = client.post("/api/seats/0/leave", json={}, headers=pin)
    assert left.status_code == 200 and left.get_json()["phones"] == []
    assert client.get("/api/state", headers=_as(token)).status_code == 403


@pytest.mark.integration
def test_a_phone_plays_its_turn_without_the_pin(app: Any, client: FlaskClient) -> None:
    app.extensions["sudoku_table"].pin.pin = "4321"
    pin = {"X-Table-Pin": "4321"}
    client.post("/api/game", json={"variant": "classic-sudoku", "players": 2}, headers=pin)
    invite = _join(client, 0, **pin)
    token = client.post("/api/seats/claim", json={"token": invite["token"]}).get_json()["token"]
    sim_put(client, "a1")
    told = client.post("/api/input", json={"type": "number", "number": 5}, headers=_as(token))
    assert told.status_code == 200, told.get_json()
    assert told.get_json()["game"]["cells"]["a1"]["number"] == 5


@pytest.mark.integration
def test_the_dealt_card_reaches_no_other_device(client: FlaskClient) -> None:
    """Leaks: the mover's card in anything the shared panel or another seat's phone reads
    (the view, a live view, the record, a hint), over a whole turn of every seat."""
    _kosmos(client, hints=True)
    phones = [_phone(client, seat) for seat in range(3)]
    leaks = 0
    for _turn in range(6):
        view = client.get("/api/state").get_json()
        mover = view["game"]["to_move"]
        card = client.get("/api/state", headers=_as(phones[mover])).get_json()["table"]["hand"]
        assert isinstance(card, int)
        client.post("/api/hint", json={}, headers=_as(phones[mover]))
        client.application.extensions["sudoku_table"].table.wait_for_computer(10)
        seen = [client.get("/api/state").get_json(), client.get("/api/record").get_json(),
                _first_live_view(client, None)]
        for other in (s for s in range(3) if s != mover):
            seen.append(client.get("/api/state", headers=_as(phones[other])).get_json())
            seen.append(_first_live_view(client, phones[other]))
        for document in seen:
            table = document.get("table", {})
            leaks += table.get("hand") is not None
            hint = table.get("hint") or {}
            leaks += hint.get("status") == "ready"
        mine = client.get("/api/state", headers=_as(phones[mover])).get_json()["table"]
        assert mine["hint"]["status"] == "ready"  # its own phone has it
        square = mine["hint"]["action"]["cell"] if "cell" in mine["hint"].get("action", {}) \
            else _free_square_for(client, card)
        sim_put(client, square)
    assert leaks == 0


def _first_live_view(client: FlaskClient, token: str | None) -> dict[str, Any]:
    view = first_live_view(client, token)
    assert view is not None, "no live view"
    return view


@pytest.mark.integration
def test_a_live_view_carries_its_own_seats_card(client: FlaskClient) -> None:
    _kosmos(client)
    phone = _phone(client, 0)
    live = _first_live_view(client, phone)
    assert live["table"]["seat"] == 0 and isinstance(live["table"]["hand"], int)
    assert "hand" not in _first_live_view(client, None)["table"]


@pytest.mark.integration
def test_the_deal_survives_a_restart_and_a_take_back(client: FlaskClient) -> None:
    view = _kosmos(client, players=2)
    panel = client.application.extensions["sudoku_table"]
    first = panel.table.hand(0)
    assert first is not None
    sim_put(client, _free_square_for(client, first["number"]))
    assert client.get("/api/state").get_json()["game"]["to_move"] == 1
    client.post("/api/input", json={"type": "undo", "confirm": True})
    assert panel.table.hand(0) == first  # the card taken back is held again
    assert view["table"]["deal"] is True


@pytest.mark.integration
def test_not_my_card_says_which_card_to_swap_in(client: FlaskClient) -> None:
    _kosmos(client, players=2)
    phone = _phone(client, 0)
    card = client.get("/api/state", headers=_as(phone)).get_json()["table"]["hand"]
    sim_put(client, "e5")
    told = client.post("/api/input", json={"type": "not_my_card"}, headers=_as(phone))
    assert told.status_code == 200
    assert f"put the {card} on e5" in told.get_json()["table"]["message"]
    assert told.get_json()["game"]["cells"]["e5"]["number"] == card


@pytest.mark.integration
def test_the_table_deals_only_where_hands_are_hidden(client: FlaskClient) -> None:
    refused = client.post("/api/game", json={"variant": "halma-dominari", "deal": True})
    assert refused.status_code == 422
    assert "only in a game whose cards or stones are hidden" in refused.get_json()["error"]


@pytest.mark.integration
def test_a_number_other_than_the_dealt_one_is_refused_without_saying_the_card(
        client: FlaskClient) -> None:
    _kosmos(client, players=2)
    card = client.application.extensions["sudoku_table"].table.hand(0)["number"]
    other = 1 if card != 1 else 2
    refused = client.post("/api/input", json={"type": "discard", "number": other})
    assert refused.status_code == 422
    assert str(card) not in refused.get_json()["error"]


@pytest.mark.integration
def test_a_seat_without_a_phone_shows_its_card_on_the_shared_panel(client: FlaskClient) -> None:
    _kosmos(client, players=2)
    _phone(client, 1)
    shown = client.get("/api/seats/0/hand")
    assert shown.status_code == 200 and isinstance(shown.get_json()["hand"], int)
    assert client.get("/api/seats/1/hand").status_code == 403  # on its own phone


@pytest.mark.integration
@pytest.mark.parametrize("variant", ["duell-der-meister", "sudoku-family"])
def test_every_game_that_hides_hands_deals(client: FlaskClient, variant: str) -> None:
    answer = client.post("/api/game", json={"variant": variant, "deal": True})
    assert answer.status_code == 200, answer.get_json()
    mover = answer.get_json()["game"]["to_move"]
    dealt = client.application.extensions["sudoku_table"].table.hand(mover)
    assert dealt is not None and dealt["do"] in ("place", "set_aside", "joker")


def test_bindings_outlive_a_restart_and_end_with_the_game(tmp_path: Any) -> None:
    path = tmp_path / "seats.json"
    seating = Seating(path)
    token, _code = seating.invite(7, 2)
    seat, own = seating.claim(7, token=token) or (None, "")
    assert seat == 2
    again = Seating(path)  # a power cut
    assert again.seat_of(7, own) == 2
    assert again.seat_of(8, own) is None  # another game: every seat free
    assert "own" not in path.read_text() and own not in path.read_text()


@pytest.mark.integration
def test_a_computer_seat_draws_its_own_card_from_the_deal(client: FlaskClient) -> None:
    """With the table dealing, the computer needs nobody to turn its card over: the table
    draws it and the bar names the card to take from the open ones."""
    _kosmos(client, players=2, computers={"1": "easy"})
    table = client.application.extensions["sudoku_table"].table
    card = table.hand(0)["number"]
    sim_put(client, _free_square_for(client, card))
    assert table.wait_for_computer(30)
    view = client.get("/api/state").get_json()
    assert view["game"]["to_move"] == 1
    assert view["table"]["next"]["code"].startswith("computer_draw_"), view["table"]["next"]
    assert view["table"]["prompt"] is None or view["table"]["prompt"]["kind"] != "hand"


@pytest.mark.integration
def test_a_number_chosen_first_on_a_phone_stays_on_that_phone(client: FlaskClient) -> None:
    """Without the deal the card is in the player's hand; a player who taps its number on
    their own phone before putting it down tells it to their phone only."""
    client.post("/api/game", json={"variant": "classic-sudoku", "players": 2, "hints": True})
    phone = _phone(client, 0)
    told = client.post("/api/input", json={"type": "number", "number": 7}, headers=_as(phone))
    assert told.status_code == 200
    mine = told.get_json()["table"]
    assert mine["in_hand"] == 7 and mine["next"]["params"].get("number") == 7
    client.post("/api/hint", json={}, headers=_as(phone))
    client.application.extensions["sudoku_table"].table.wait_for_computer(10)
    assert client.get("/api/state", headers=_as(phone)).get_json()["table"]["hint"][
        "status"] == "ready"
    for other in (client.get("/api/state").get_json(), _first_live_view(client, None),
                  client.get("/api/state", headers=_as(_phone(client, 1))).get_json()):
        table = other["table"]
        assert table["in_hand"] is None and table["next"]["code"] == "place_own"
        assert "7" not in json.dumps({k: table[k] for k in ("prompt", "next", "next_text",
                                                           "hint", "pad")
                                      if k != "pad"})
        assert table["hint"]["status"] == "private"


@pytest.mark.integration
def test_the_join_answer_says_whether_a_phone_can_reach_the_panel(app: Any,
                                                                   client: FlaskClient) -> None:
    client.post("/api/game", json={"variant": "classic-sudoku", "players": 2})
    app.config["PANEL_LISTENS_ON"] = "127.0.0.1"
    assert _join(client, 0)["reachable"] is False
    app.config["PANEL_LISTENS_ON"] = "0.0.0.0"
    assert _join(client, 0)["reachable"] is True


@pytest.mark.integration
def test_every_view_names_the_start_of_the_table(client: FlaskClient) -> None:
    """Versions count from 0 again after a restart; ``boot`` tells a page that a lower
    version is a new start, not an older view."""
    first = client.get("/api/state").get_json()
    assert isinstance(first["boot"], str) and first["boot"]
    assert client.get("/api/state").get_json()["boot"] == first["boot"]


@pytest.mark.integration
@pytest.mark.parametrize("typed", ["ÄBCD-EFGH", "٣٤٥٦-٧٨٩٢", "\ud800BCD-EFGH", "ß" * 8, "Ω"])
def test_a_code_beyond_ascii_is_unknown_and_changes_nothing(client: FlaskClient,
                                                            typed: str) -> None:
    """A code typed with letters or digits of any script is a wrong code (404), never a
    fault; the pending invite still works afterwards."""
    _kosmos(client, players=2)
    invite = _join(client, 0)
    for body in ({"code": typed}, {"token": typed}):
        answer = client.post("/api/seats/claim", data=json.dumps(body),
                             content_type="application/json")
        assert answer.status_code == 404, answer.get_data(as_text=True)
    assert client.post("/api/seats/claim", json={"code": invite["code"]}).status_code == 200


@pytest.mark.integration
def test_a_right_code_during_a_lockout_is_refused_and_uses_nothing_up(app: Any,
                                                                      client: FlaskClient) -> None:
    """Guessing is locked out after wrong codes: a right code sent then is refused (429) and
    the invite it names stays good for the phone that tries once the lockout is over."""
    from sudoku_table.web.security import PinGuard

    now = [1000.0]
    app.extensions["sudoku_table"].pin = PinGuard("", clock=lambda: now[0])
    _kosmos(client, players=2)
    invite = _join(client, 0)
    status = 404
    for _ in range(50):
        status = client.post("/api/seats/claim", json={"code": "WRNG-CODE"}).status_code
        if status == 429:
            break
    assert status == 429
    locked = client.post("/api/seats/claim", json={"code": invite["code"]})
    assert locked.status_code == 429
    assert client.get("/api/state").get_json()["table"]["phones"] == []
    now[0] += 3600
    claimed = client.post("/api/seats/claim", json={"code": invite["code"]})
    assert claimed.status_code == 200, claimed.get_json()
