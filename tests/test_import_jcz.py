"""`carc import game.jcz`: JCloisterZone saves stored as our games, under the JCZ reading."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from carc.cli import app
from domain.readings import switch
from domain.replay import replay
from domain.store import open_store
from replays.jcz import JczError, read_jcz
from replays.sources import import_jcz
from tests.jcz_saves import commit, pass_, place, save
from tests.reference import JCZ, require

runner = CliRunner()
NATURAL_BCB_TB = JCZ / "oracle-natural" / "basic_bcb_tb-p3-s300008.jcz"


def carc(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def stored_games(db: str) -> int:
    return len(list(open_store(db).started_games()))


def test_a_players_own_save_imports_with_its_final_points_and_round_trips_the_store(tmp_path: Path) -> None:
    path = require(NATURAL_BCB_TB)
    db = str(tmp_path / "g.sqlite")
    code, out, err = carc("import", str(path), "--db", db, "--json")
    assert code == 0, err
    imported = json.loads(out)
    oracle = read_jcz(path).oracle
    assert oracle is not None
    assert list(imported["final"].values()) == list(oracle.final_points)
    game, events = import_jcz(path)
    stored = open_store(db).game_events(game.id)
    assert stored == events  # event for event, the draw order a tuple like any other game's
    assert replay(stored).state.scores == game.state.scores
    assert switch(replay(stored).state.rules, "order") == "jcz"


def test_the_same_save_twice_is_already_stored_and_succeeds(tmp_path: Path) -> None:
    path, db = str(require(NATURAL_BCB_TB)), str(tmp_path / "g.sqlite")
    first = json.loads(carc("import", path, "--db", db, "--json")[1])
    code, out, err = carc("import", path, "--db", db, "--json")
    assert code == 0, err
    again = json.loads(out)
    assert (again["game"], again["already_stored"], first["already_stored"]) == (first["game"], True, False)
    assert stored_games(db) == 1


def test_saves_sharing_a_jcz_game_id_never_collide(tmp_path: Path) -> None:
    """JCloisterZone's own fixtures share game id "1": each is a game of its own."""
    paths = sorted(require(JCZ / "engine-tests" / "basic").glob("*.jcz"))
    assert len({read_jcz(p).gameId for p in paths}) < len(paths)
    db = str(tmp_path / "g.sqlite")
    for path in paths:
        code, _, err = carc("import", str(path), "--db", db)
        assert code == 0, err
    assert stored_games(db) == len(paths)


def test_a_later_save_of_the_same_game_is_a_game_of_its_own(tmp_path: Path) -> None:
    """A save cut short (as if saved earlier in the same game) keeps JCloisterZone's game id but
    is stored beside the whole one: a stored game's events are never rewritten."""
    path = require(NATURAL_BCB_TB)
    save = read_jcz(path)
    earlier = tmp_path / "earlier.jcz"
    earlier.write_bytes(
        msgspec.json.encode(msgspec.structs.replace(save, replay=save.replay[:20], oracle=None))
    )
    db = str(tmp_path / "g.sqlite")
    ids = {json.loads(carc("import", str(p), "--db", db, "--json")[1])["game"] for p in (earlier, path)}
    assert len(ids) == 2 and stored_games(db) == 2


def test_an_unsupported_save_is_refused_naming_what_it_needs(tmp_path: Path) -> None:
    path = require(JCZ / "engine-tests" / "gq11" / "pig-herd-scoring.jcz")
    db = str(tmp_path / "g.sqlite")
    code, _, err = carc("import", str(path), "--db", db)
    assert code == 1 and "does not support" in err and "set gq11" in err
    assert stored_games(db) == 0


def _write(tmp_path: Path, document: dict[str, object]) -> Path:
    path = tmp_path / "game.jcz"
    path.write_bytes(msgspec.json.encode(document))
    return path


@pytest.mark.parametrize("where", ["draw order", "placement"])
def test_an_unknown_tile_id_is_a_clear_error_and_nothing_is_stored(tmp_path: Path, where: str) -> None:
    tiles = ["BA/RFr", "XX/Nope"] if where == "draw order" else ["BA/RFr", "BA/C"]
    placed = "XX/Nope" if where == "placement" else "BA/RFr"
    document = save([place(0, placed, 1, 0), pass_(0), commit(0)], tiles)
    path, db = _write(tmp_path, document), str(tmp_path / "g.sqlite")
    with pytest.raises(JczError, match="XX/Nope"):
        import_jcz(path)
    code, _, err = carc("import", str(path), "--db", db)
    assert code == 1 and "XX/Nope" in err
    assert stored_games(db) == 0


def test_a_move_our_rules_refuse_names_the_message_and_the_rule(tmp_path: Path) -> None:
    # BA/RFr rotated 90 turns its road north-south: its west edge (road) meets the start
    # tile's east road only unrotated, so this placement is illegal.
    document = save([place(0, "BA/RFr", 1, 0, 90), pass_(0), commit(0)], ["BA/RFr", "BA/C"])
    path, db = _write(tmp_path, document), str(tmp_path / "g.sqlite")
    code, _, err = carc("import", str(path), "--db", db)
    assert code == 1 and "message 0" in err and "R-BASE-3" in err
    assert stored_games(db) == 0
