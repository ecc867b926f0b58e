"""``sudoku-table review``: every move beside the computer's, for people (in their language)
and for tools (one JSON document); bad records exit 1 with replay's JSON error. And the
summary's words in both languages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_table.ai.review import Judgement, Summary
from sudoku_table.cli import main
from sudoku_table.rules.actions import Place
from sudoku_table.rules.game import new_game
from sudoku_table.web.review_words import gain_words, note_words, player_names, summary_words

EXAMPLES = Path(__file__).parent.parent / "data" / "examples"
SHORT = EXAMPLES / "vierer-dominari-7-12.json"


@pytest.fixture
def quick(tmp_path: Path) -> Path:
    """A config whose computer looks at few positions: these tests read the command's output,
    not the quality of its judgement."""
    path = tmp_path / "table.toml"
    path.write_text("[computer]\nstrong_positions = 40\nnormal_positions = 30\n",
                    encoding="utf-8")
    return path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_for_people_every_move_then_each_players_summary(
        capsys: pytest.CaptureFixture[str], quick: Path, tmp_path: Path) -> None:
    data = json.loads(SHORT.read_text(encoding="utf-8"))["record"]
    data["names"] = ["Anna", "Ben"]
    record = tmp_path / "named.json"
    record.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = _run(capsys, "review", str(record), "--config", str(quick),
                          "--language", "en")
    assert code == 0 and "Traceback" not in err
    lines = out.splitlines()
    assert lines[0].startswith("Vierer-Dominari, Anna, Ben: each move beside the computer's")
    moves = [line for line in lines if line.startswith("Move ")]
    assert [m.split(":")[0] for m in moves] == [f"Move {n}" for n in range(1, 13)]
    summary = lines[lines.index("Summary") + 1:]
    assert [s.split(":")[0] for s in summary] == ["Anna", "Ben"]
    assert all("as good as the computer's" in s for s in summary)


def test_in_german(capsys: pytest.CaptureFixture[str], quick: Path) -> None:
    code, out, _ = _run(capsys, "review", str(SHORT), "--config", str(quick),
                        "--language", "de")
    assert code == 0
    assert "Zusammenfassung" in out and "Zug 1: Weiß: " in out
    assert "as good as" not in out and "Move 1" not in out


def test_for_tools_one_json_document(capsys: pytest.CaptureFixture[str], quick: Path) -> None:
    code, out, _ = _run(capsys, "review", str(SHORT), "--json", "--level", "normal",
                        "--config", str(quick), "--language", "en")
    assert code == 0
    doc = json.loads(out)
    assert doc["level"] == "normal" and doc["status"] == "done"
    assert doc["variant"] == "vierer-dominari" and doc["names"] == ["White", "Black"]
    assert len(doc["moves"]) == 12 and len(doc["scores"]) == 13
    for move in doc["moves"]:
        assert move["verdict"] in ("best", "good", "forced", "slip", "miss")
        assert {"best", "loss", "measure", "reasons", "verdict_text", "text"} <= set(move)
    assert [s["player"] for s in doc["summary"]] == [0, 1]


@pytest.mark.parametrize("text,expected", [
    ("{not json", "not valid JSON"),
    ('{"variant": "nope"}', "unknown variant"),
])
def test_a_bad_record_exits_1_with_replays_error(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    code, out, err = _run(capsys, "review", str(path))
    assert code == 1 and "Traceback" not in err
    assert expected in json.loads(out)["error"]["reason"]


def test_an_illegal_action_exits_1_naming_it(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    data = json.loads(SHORT.read_text(encoding="utf-8"))["record"]
    data["actions"][3] = data["actions"][2]  # the same square twice
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, _ = _run(capsys, "review", str(path))
    assert code == 1
    assert json.loads(out)["error"]["index"] == 3
    code, _, _ = _run(capsys, "review", str(tmp_path / "missing.json"))
    assert code == 1


def test_an_unknown_level_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["review", str(SHORT), "--level", "hard"])
    assert stop.value.code == 2


# --- the words of a summary -------------------------------------------------------------------

def _missed(index: int, loss: float, measure: str = "points") -> Judgement:
    return Judgement(index=index, player=0, action=Place("a1", 2), best=Place("c4", 7),
                     verdict="miss", measure=measure, loss=loss)


def test_the_summary_reads_as_a_family_says_it() -> None:
    summary = Summary(player=0, moves=20, choices=18, as_good=14, forced=2,
                      biggest=_missed(22, 5.2))
    names = ["Anna", "Ben"]
    assert summary_words(summary, names, "en") == (
        "Anna: 14 of 18 moves as good as the computer's; the biggest chance missed: 7 on c4 "
        "(+5 points), move 23 (2 more moves had only one possibility)")
    assert summary_words(summary, names, "de") == (
        "Anna: 14 von 18 Zügen so gut wie die des Computers; die größte verpasste Chance: "
        "7 auf c4 (+5 Punkte), Zug 23 (2 weitere Züge hatten nur eine Möglichkeit)")
    one_forced = Summary(player=0, moves=19, choices=18, as_good=14, forced=1,
                         biggest=_missed(22, 1.2))
    assert summary_words(one_forced, names, "de").endswith(
        "(+1 Punkt), Zug 23 (1 weiterer Zug hatte nur eine Möglichkeit)")
    assert summary_words(one_forced, names, "en").endswith(
        "(+1 point), move 23 (1 more move had only one possibility)")
    perfect = Summary(player=1, moves=3, choices=3, as_good=3, forced=0, biggest=None)
    assert summary_words(perfect, names, "en") == "Ben: 3 of 3 moves as good as the computer's"
    assert summary_words(perfect, names, "de") == "Ben: 3 von 3 Zügen so gut wie die des Computers"


def test_the_gain_is_said_in_the_games_unit() -> None:
    names = ["Anna", "Ben"]
    assert gain_words(_missed(0, 1.2), names, "en") == "+1 point"
    assert gain_words(_missed(0, 1.2), names, "de") == "+1 Punkt"
    assert gain_words(_missed(0, 2.2), names, "de") == "+2 Punkte"
    assert gain_words(_missed(0, 0.31, "chance"), names, "en") == "chance to win +31 %"
    assert gain_words(_missed(0, 0.31, "chance"), names, "de") == "Gewinnchance +31 %"
    assert gain_words(_missed(0, 2.0, "markers"), names, "de") == "+2 Wertungsmarker"


def _scored(loss: float, points: tuple[int, int], best_points: tuple[int, int],
            opponent: int | None = 1) -> Judgement:
    return Judgement(index=3, player=0, action=Place("a1", 2), best=Place("c4", 7),
                     verdict="miss", measure="points", loss=loss, points=points,
                     best_points=best_points, opponent=opponent)


def test_points_still_to_come_are_said_as_such_and_why() -> None:
    """The points the two moves score at once are points a player can count on the board;
    the rest is the computer's estimate after the next player's best reply, said so."""
    names = ["Anna", "Ben"]
    all_now = _scored(3.1, points=(2, -1), best_points=(4, -2))
    assert gain_words(all_now, names, "en") == "+3 points"
    both = _scored(6.0, points=(2, -1), best_points=(3, -1))
    assert gain_words(both, names, "en") == \
        "+1 point now, +5 points still to come, estimated after Ben's best reply"
    assert gain_words(both, names, "de") == \
        "+1 Punkt jetzt, +5 Punkte später, geschätzt nach der besten Antwort von Ben"
    later_only = _scored(4.0, points=(2, -1), best_points=(2, -1))
    assert gain_words(later_only, names, "en") == \
        "+4 points still to come, estimated after Ben's best reply"
    gave_back = _scored(1.0, points=(1, 0), best_points=(3, 0))
    assert gain_words(gave_back, names, "de") == \
        "+2 Punkte jetzt, -1 Punkt später, geschätzt nach der besten Antwort von Ben"
    game_over = _scored(6.0, points=(2, -1), best_points=(3, -1), opponent=None)
    assert gain_words(game_over, names, "en") == "+6 points", "the last move: all is counted"


def test_what_chance_decided_is_said() -> None:
    game = new_game("classic-sudoku", 2)
    names = player_names(game, ["Anna"], "en")
    assert names == ["Anna", "Player 2"]
    forced = Judgement(index=0, player=0, action=Place("a1", 7), best=Place("a1", 7),
                       verdict="forced", measure="points", hand=7)
    assert note_words(game, forced, names, "en") == \
        "The 7 fitted only here: chance decided this move, not the player."
    split = Judgement(index=0, player=0, action=Place("a1", 7), best=Place("b2", 7),
                      verdict="slip", measure="points", hand=7, odds=(3, 9), opponent=1)
    assert note_words(game, split, names, "en") == (
        "Chance decided which was better: Anna's move would have done as well for 3 of the 9 "
        "cards Player 2 could hold next.")
    assert "Karten" in (note_words(game, split, names, "de") or "")
