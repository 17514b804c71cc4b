"""`carc check`: replay recorded games through our engine and compare with what the files expect.

A `.jcz` can carry two kinds of expectations: the engine fixtures' `test.assertions` (the four
sentence patterns of `reference/jcz/INDEX.md`) and the reference games' `oracle` block (final
points, the score history turn part by turn part, the legal placements at every tile placement
and, for natural saves, the tiles drawn). `check_file` replays the game once, compares each
expectation at the moment it concerns and stops at the first disagreement, so the report names
the earliest point where our engine and the file part ways.
"""

from __future__ import annotations

import gc
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

import msgspec
from msgspec.structs import replace

from domain.aggregate import Game
from domain.commands import Pass
from domain.moves import expected_step, legal_commands, legal_placements
from domain.scoring import Award
from domain.state import TINY_CITY, GameState, Phase
from replays.jcz import (
    JczDraw,
    JczError,
    JczOracle,
    JczRefused,
    JczSave,
    JczScore,
    ReplayVisitor,
    expansions_of,
    malformed_save,
    read_jcz,
    replay_jcz,
    unsupported,
)
from replays.jcz_draws import DrawWalk
from replays.jcz_sets import FINAL_ONLY, NOT_SCORES, PLACEMENT_STEPS, SCORE_NAMES

Verdict = Literal["agrees", "disagrees", "unsupported", "error", "unchecked"]
FAILING: frozenset[str] = frozenset({"disagrees", "error"})

# Our award categories -> JCloisterZone's score names (each set's mapping names its own);
# unfinished features score as `….incomplete`, but those scored only at the end.
_SCORE_NAMES = SCORE_NAMES
_EMPTY = ".empty"
# Our phases -> JCloisterZone's phase names, for `phase is …` assertions.
_PHASE_NAMES = {Phase.PLACE: "TilePhase", Phase.ACTION: "ActionPhase", Phase.OVER: "GameOverPhase"}

_HAS = re.compile(r"(?P<name>.+) has (?P<points>-?\d+) points?")
_SCORED = re.compile(r"(?P<name>.+) scored (?P<feature>\S+) for (?P<points>-?\d+) points?")
_CAN_PASS = re.compile(r"Player can(?P<not>'t| not)? pass")
_PHASE = re.compile(r"phase is (?P<phase>\w+)")


class Disagreement(msgspec.Struct, frozen=True, kw_only=True):
    """The first point where our engine and the file differ."""

    what: str  # draws, legal placements, scores, final points, assertion, replay
    turn: int | None = None  # the turn (JCZ: turn part) it happened in
    decision: int | None = None  # index in the save's `replay` of the message concerned
    ours: str
    theirs: str


class CheckResult(msgspec.Struct, frozen=True, kw_only=True):
    game: str  # the file
    verdict: Verdict
    sets: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    reason: str | None = None  # unsupported: what is missing; error: why the file cannot be used
    disagreement: Disagreement | None = None
    checked: tuple[str, ...] = ()  # the expectations compared (all of them agree unless disagrees)
    points: tuple[int, ...] = ()  # our final points per seat, when the replay got to the end


class _Differs(Exception):
    def __init__(self, disagreement: Disagreement) -> None:
        super().__init__(disagreement.what)
        self.disagreement = disagreement


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Holds off the cycle collector for one game's check. A replay allocates many short-lived
    objects, freed as their counts drop, yet their number sets off collections that walk every
    live object, the tile catalogue included, time after time: about a tenth of a check. What
    cycles the game leaves go at the next collection after."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def check_file(path: str | Path) -> CheckResult:
    """Replay one `.jcz` and compare it with every expectation it carries."""
    with _collector_paused():
        return _check_file(path)


def _check_file(path: str | Path) -> CheckResult:
    try:
        save = read_jcz(path)
    except JczError as e:
        return CheckResult(game=str(path), verdict="error", reason=str(e))
    players = tuple(p.name for p in sorted(save.players, key=lambda p: p.slot))
    head = CheckResult(game=str(path), verdict="error", sets=expansions_of(save), players=players)
    missing = unsupported(save)
    if missing:
        return replace(head, verdict="unsupported", reason=missing)
    checker = _Checker(save)
    try:
        with malformed_save(path):
            game = checker.run()
            checker.finish(game)
    except _Differs as d:
        return replace(head, verdict="disagrees", disagreement=d.disagreement, checked=checker.expectations)
    except JczRefused as e:
        disagreement = Disagreement(
            what="replay", decision=e.index, ours=f"refused: {e}", theirs="JCloisterZone played it"
        )
        return replace(head, verdict="disagrees", disagreement=disagreement, checked=checker.expectations)
    except JczError as e:
        return replace(head, reason=str(e))
    return replace(
        head,
        verdict="agrees" if checker.expectations else "unchecked",
        checked=checker.expectations,
        points=tuple(game.state.scores),
    )


def jcz_paths(paths: Iterable[str | Path]) -> list[Path]:
    """The files to check: each file as given, each directory's `.jcz` files (recursively)."""
    found: list[Path] = []
    for p in map(Path, paths):
        found.extend(sorted(p.rglob("*.jcz")) if p.is_dir() else [p])
    return found


def score_name(award: Award) -> str:
    """JCloisterZone's name for the points event an award corresponds to."""
    if award.category.endswith(_EMPTY):  # followers of no strength: never "incomplete"
        category = award.category.removesuffix(_EMPTY)
        # named after the kind of feature alone: a tiny city's too (V-TINY-CITY)
        return _SCORE_NAMES["city" if category == TINY_CITY else category] + _EMPTY
    name = _SCORE_NAMES[award.category]
    return f"{name}.incomplete" if award.final and award.category not in FINAL_ONLY else name


class _Checker(ReplayVisitor):
    def __init__(self, save: JczSave) -> None:
        self.save = save
        oracle = save.oracle
        self.oracle = oracle
        self.decisions = {d.index: d for d in oracle.decisions} if oracle else {}
        # A turn JCloisterZone opens only to offer a set's choice at the end, declined, places no
        # tile and scores nothing; it ends with no COMMIT, so it is no turn part of ours.
        self.parts = (
            [p for p in oracle.score_history if not p.finalScoring and (p.tiles != () or p.scores)]
            if oracle
            else []
        )
        self.part = 0  # next turn part of the score history
        self.awards_seen = 0
        # A turn part committed but not compared yet: (the COMMIT's index, our count of the part).
        # JCloisterZone's phases after a turn part's COMMIT (the scoring, then the sets' own: a
        # figure moved on, a token drawn and scored, …) run before its next turn part opens, and
        # one that asks a player and is declined takes no COMMIT of its own: what our engine
        # scores before it opens its next part belongs to the part committed (`Award.part`).
        self.closing: tuple[int, int] | None = None
        names = ["draws"] if oracle and oracle.natural and oracle.draws is not None else []
        if oracle:
            names += ["legal placements", "scores", "final points"]
        if save.test and save.test.assertions:
            names.append("assertions")
        self.expectations = tuple(names)

    def run(self) -> Game:
        oracle = self.oracle
        expected = oracle.draws if oracle and oracle.natural else None
        walk = DrawWalk(self.save)
        try:
            walk.run()
        except JczRefused:
            if expected is not None:  # a draw that went wrong earlier is the first disagreement
                _check_draws(walk.draws, expected[: len(walk.draws)])
            raise
        if expected is not None:
            _check_draws(walk.draws, expected)
        plan = walk.plan()
        return replay_jcz(self.save, plan.order, self, randoms=plan.randoms)

    def placement(self, index: int, state: GameState, *, aside: bool = False) -> None:
        if self.oracle is None:
            return
        self._settle(state)
        decision = self.decisions.pop(index, None)
        if aside and decision is None:
            # JCloisterZone lists the placement it offers again when another action is taken
            # while it waits (a payment made while a set's own tile is offered), but only when
            # its prompt was open: nothing listed, nothing to compare.
            return
        waiting = expected_step(state)
        placing = PLACEMENT_STEPS.get(waiting.step) if waiting is not None else None
        if state.tile is not None:
            held = state.tile.id
        else:
            if waiting is None or placing is None:
                # Our rules hold no tile here: name what they wait for, not a set's own placement.
                raise _Differs(
                    Disagreement(
                        what="legal placements",
                        turn=state.turn,
                        decision=index,
                        ours="no tile to place: our rules wait for "
                        + (f"player {waiting.player}'s {waiting.step}" if waiting else "no decision"),
                        theirs=f"{decision.tile} placed" if decision else "a tile placed",
                    )
                )
            held = placing[1]
        if state.tile is not None:
            ours = legal_placements(state)
        else:
            assert waiting is not None and placing is not None
            ours = placing[0].placement_options(state, waiting.step)
        if decision is None:
            raise _Differs(
                Disagreement(
                    what="legal placements",
                    turn=state.turn,
                    decision=index,
                    ours=f"{held} to place",
                    theirs="no placement decision here",
                )
            )
        theirs = decision.placements
        # Equal as sets and in size: no placement offered twice on either side. JCloisterZone
        # lists them sorted, so a sorted copy of ours usually settles it at once.
        if decision.tile != held or (
            tuple(sorted(ours)) != theirs and (len(ours) != len(theirs) or set(ours) != set(theirs))
        ):
            ours_text, theirs_text = _compare_placements(sorted(ours), sorted(theirs))
            raise _Differs(
                Disagreement(
                    what="legal placements",
                    turn=state.turn,
                    decision=index,
                    ours=f"{held}: {ours_text}",
                    theirs=f"{decision.tile}: {theirs_text}",
                )
            )

    def committed(self, index: int, state: GameState) -> None:
        if self.oracle is None:
            return
        self._settle(state)
        # Our engine may already have begun the next turn part (its tile drawn, what a set gives
        # as a turn opens given): what that part scored belongs to JCloisterZone's next part.
        begun = state.phase in (Phase.PLACE, Phase.DISCARDED)
        self.closing = (index, state.part_count - 1 if begun else state.part_count)
        self._settle(state)

    def _settle(self, state: GameState, *, ended: bool = False) -> None:
        """Compares the turn part committed last once our engine has closed it: a later part begun,
        the game over, or the replay ended (`ended`). Until then a decision JCloisterZone asks
        for in a phase after the COMMIT (a set's figure moved on) may still score for that part."""
        if self.closing is None:
            return
        index, done = self.closing
        if not ended and state.part_count <= done and state.phase != Phase.OVER:
            return
        self.closing = None
        parts = self.parts
        fresh = state.awards[self.awards_seen :]
        taken = next((i for i, a in enumerate(fresh) if a.part > done), len(fresh))
        # Most turn parts score nothing, on either side: nothing to compare.
        if not taken and self.part < len(parts) and not parts[self.part].scores:
            self.part += 1
            return
        self.awards_seen += taken
        # Some of the sets' payments move points, but JCZ records them as events of their own, not
        # as scores of the turn part (`JczSet.not_scores`): only the totals count them.
        awards = [a for a in fresh[:taken] if a.category not in NOT_SCORES]
        mine = sorted(_award_key(a) for a in awards if not a.final)
        if self.part >= len(parts):
            raise _Differs(
                Disagreement(
                    what="scores",
                    turn=state.turn,
                    decision=index,
                    ours=f"a turn part scoring {_scores_text(Counter(mine))}",
                    theirs="no more turn parts",
                )
            )
        part = parts[self.part]
        self.part += 1
        # Several scores in one turn part come in no meaningful order (oracle README): compared
        # as multisets, sorted.
        if mine != sorted((s.player, s.points, s.name) for s in part.scores):
            ours, theirs = Counter(mine), _jcz_scores(part.scores)
            raise _Differs(
                Disagreement(
                    what="scores",
                    turn=part.turn,
                    decision=index,
                    ours=_scores_text(ours),
                    theirs=_scores_text(theirs),
                )
            )

    def finish(self, game: Game) -> None:
        state = game.state
        if self.oracle is not None:
            self._finish_oracle(state, self.oracle)
        if self.save.test is not None:
            for sentence in self.save.test.assertions:
                self._assertion(state, sentence)

    def _finish_oracle(self, state: GameState, oracle: JczOracle) -> None:
        self._settle(state, ended=True)
        if self.decisions:
            index = min(self.decisions)
            decision = self.decisions[index]
            raise _Differs(
                Disagreement(
                    what="legal placements",
                    decision=index,
                    ours="no placement here",
                    theirs=f"{decision.tile} to place{' (passed)' if decision.passed else ''}",
                )
            )
        if self.part < len(self.parts):
            part = self.parts[self.part]
            raise _Differs(
                Disagreement(
                    what="scores",
                    turn=part.turn,
                    ours="no more turn parts",
                    theirs=f"a turn part scoring {_scores_text(_jcz_scores(part.scores))}",
                )
            )
        final = [p for p in oracle.score_history if p.finalScoring]
        ours = Counter(_award_key(a) for a in state.awards if a.final)
        theirs = _jcz_scores(final[0].scores) if final else Counter()
        if ours != theirs or bool(final) != state.over:
            raise _Differs(
                Disagreement(
                    what="scores",
                    turn=state.turn,
                    ours=f"final scoring {_scores_text(ours)}" if state.over else "the game goes on",
                    theirs=f"final scoring {_scores_text(theirs)}" if final else "the game goes on",
                )
            )
        if tuple(state.scores) != oracle.final_points:
            raise _Differs(
                Disagreement(
                    what="final points",
                    turn=state.turn,
                    ours=_points_text(state.scores),
                    theirs=_points_text(oracle.final_points),
                )
            )

    def _assertion(self, state: GameState, sentence: str) -> None:
        seats = {p.name: i for i, p in enumerate(sorted(self.save.players, key=lambda p: p.slot))}
        if m := _HAS.fullmatch(sentence):
            seat = _seat(seats, m["name"], sentence)
            holds = state.scores[seat] == int(m["points"])
            ours = f"{m['name']} has {state.scores[seat]} points"
        elif m := _SCORED.fullmatch(sentence):
            seat = _seat(seats, m["name"], sentence)
            feature, points = m["feature"], int(m["points"])
            scored = [a for a in state.awards if a.player == seat and score_name(a).startswith(feature)]
            holds = any(a.points == points for a in scored)
            ours = f"{m['name']} scored {feature} for {', '.join(str(a.points) for a in scored) or 'nothing'}"
        elif m := _CAN_PASS.fullmatch(sentence):
            can = any(isinstance(c, Pass) for c in legal_commands(state))
            holds = can == (m["not"] is None)
            ours = "Player can pass" if can else "Player can't pass"
        elif m := _PHASE.fullmatch(sentence):
            phase = _PHASE_NAMES.get(state.phase, str(state.phase))
            holds = phase == m["phase"]
            ours = f"phase is {phase}"
        else:
            raise JczError(f"unknown assertion pattern: {sentence!r}")
        if not holds:
            raise _Differs(Disagreement(what="assertion", turn=state.turn, ours=ours, theirs=sentence))


def _seat(seats: dict[str, int], name: str, sentence: str) -> int:
    if name not in seats:
        raise JczError(f"assertion {sentence!r} names no player of the game")
    return seats[name]


def _check_draws(ours: Sequence[JczDraw], theirs: Sequence[JczDraw]) -> None:
    for i in range(max(len(ours), len(theirs))):
        mine = ours[i] if i < len(ours) else None
        their = theirs[i] if i < len(theirs) else None
        if mine != their:
            either = mine or their
            raise _Differs(
                Disagreement(
                    what="draws",
                    decision=either.after if either else None,
                    ours=f"draw {i + 1}: {_draw_text(mine)}",
                    theirs=f"draw {i + 1}: {_draw_text(their)}",
                )
            )


def _draw_text(draw: JczDraw | None) -> str:
    return f"{draw.tile} ({draw.kind}, after message {draw.after})" if draw else "none"


def _award_key(award: Award) -> tuple[int, int, str]:
    return award.player, award.points, score_name(award)


def _jcz_scores(scores: Iterable[JczScore]) -> Counter[tuple[int, int, str]]:
    # Several scores in one turn part come in no meaningful order (oracle README): a multiset.
    return Counter((s.player, s.points, s.name) for s in scores)


def _scores_text(scores: Counter[tuple[int, int, str]]) -> str:
    items = sorted(scores.elements())
    return ", ".join(f"seat {p} {name} {points}" for p, points, name in items) or "nothing"


def _points_text(points: Iterable[int]) -> str:
    return ", ".join(f"seat {i} {p}" for i, p in enumerate(points))


def _compare_placements(
    ours: list[tuple[int, int, int]], theirs: list[tuple[int, int, int]]
) -> tuple[str, str]:
    only_ours = sorted(set(ours) - set(theirs))
    only_theirs = sorted(set(theirs) - set(ours))
    return (
        f"{len(ours)} placements, not offered by JCZ: {_placements_text(only_ours)}",
        f"{len(theirs)} placements, not offered by us: {_placements_text(only_theirs)}",
    )


def _placements_text(placements: list[tuple[int, int, int]]) -> str:
    return " ".join(f"({x},{y}) r{r}" for x, y, r in placements) or "none"
