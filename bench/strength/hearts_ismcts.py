"""Our Hearts levels against OpenSpiel's information-set MCTS, on duplicate deals.

Needs OpenSpiel (``pip install open_spiel``, in the ``bench`` extra); nothing else in the
project does. Both engines play each hand side by side, card for card: ours decides for its seat
from its own view, OpenSpiel's ``ISMCTSBot`` (random roll-outs, ``--sims`` simulations a card,
the most visited card) from the OpenSpiel state. The rules are the same on both sides: ours with
the modern first-trick options (the two of clubs leads, no points on the first trick), OpenSpiel's
``hearts`` with the queen of spades not breaking hearts. Each deal of each pass kind is played
five times: ISMCTS in all four seats, then our level in each seat in turn against three ISMCTS;
our points in a seat are compared with ISMCTS's in the same seat of the same deal, so the luck of
the cards cancels. Points per hand are the hand's score (moon rule applied), lower is better.

OpenSpiel's ISMCTS cannot pass: asked for a pass after the first seat has passed it crashes
(open_spiel 2.0.2), so its seats pass as our standard level does; hold hands have no pass.
ISMCTS does not repeat itself exactly even from the same seeds, so runs differ a little beyond
the deals: compare two settings of ours on the same deals and seats, over a few hundred deals.

    python -m bench.strength.hearts_ismcts                             # 40 deals, hold and left
    python -m bench.strength.hearts_ismcts --deals 200 --kinds left,right,across,hold --workers 2
    python -m bench.strength.hearts_ismcts --level standard --deals 100
    python -m bench.strength.hearts_ismcts --kinds hold --log hands.jsonl   # every hand, to study
    python -m bench.strength.hearts_ismcts --show hands.jsonl   # the moons shot against our seat

``--log FILE`` writes every hand played as one JSON line: the deal number, the kind, our seat
(null for ISMCTS's four seats) and the hand as the game's history keeps it (the deal, the
passes, every card played in order, the points taken, the scores, the moon shooter). Our seat's
decisions repeat exactly from them (``choose`` with the bench's seed), so a hand that went wrong
can be replayed card by card. ``--show FILE`` prints, trick by trick, the logged hands in which
the moon was shot against our seat (the expert's weak spot on hold hands).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import math
import statistics
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bench.strength.hearts import add_settings_option, apply_settings
from games.hearts import State, choose
from games.hearts.actions import parse_pass, parse_play
from games.hearts.cardbits import cards_of, from_card, to_card
from games.hearts.rules import Rules

MODERN = Rules(two_of_clubs_leads=True, no_points_on_first_trick=True)
HAND_NUMBERS = {"left": 0, "right": 1, "across": 2, "hold": 3}  # our hands pass by number
OPENSPIEL_DIRECTION = {"hold": 0, "left": 1, "across": 2, "right": 3}  # its first chance node
OPENSPIEL_PARAMS = {"qs_breaks_hearts": False}
Z95 = 1.96


def to_openspiel(c: int) -> int:
    """Our card (suit * 13 + order) as OpenSpiel's hearts action (order * 4 + suit)."""
    return (c % 13) * 4 + c // 13


def from_openspiel(action: int) -> int:
    return (action % 4) * 13 + action // 4


def deal_order(hands: list[int]) -> Iterator[int]:
    """OpenSpiel's deal actions giving each seat its hand (its k-th card goes to seat k % 4)."""
    cards = [cards_of(h) for h in hands]
    for k in range(52):
        yield to_openspiel(cards[k % 4][k // 4])


@dataclass(frozen=True)
class Hand:
    """One hand's result: each seat's score, the points taken, the shooter (or None), and the
    game's record of the hand (see ``--log``)."""

    scores: list[int]
    taken: list[int]
    moon: int | None
    record: dict[str, Any] = field(default_factory=dict, compare=False)


@functools.cache
def _load_openspiel() -> tuple[Any, Any]:
    """OpenSpiel and its hearts game with our rules, loaded once a process."""
    try:
        import pyspiel
    except ImportError:
        raise SystemExit("this bench needs OpenSpiel: pip install open_spiel") from None
    return pyspiel, pyspiel.load_game("hearts", OPENSPIEL_PARAMS)


def play_hand(
    deal: int, kind: str, ours: int | None, level: str, sims: int, samples: int | None
) -> tuple[Hand, list[float]]:
    """Hand ``kind`` of game ``deal`` with our ``level`` in seat ``ours`` (None: no seat) and
    ISMCTS in the others; the result and our decision times."""
    pyspiel, game = _load_openspiel()
    s = State.new(seed=deal, rules=MODERN)
    s.hand_number = HAND_NUMBERS[kind]
    s._deal()
    theirs = game.new_initial_state()
    theirs.apply_action(OPENSPIEL_DIRECTION[kind])
    for dealt in deal_order(s.hands):
        theirs.apply_action(dealt)
    # Kept in a variable: a bot holds no reference to its evaluator, which must outlive it.
    evaluators = {p: pyspiel.RandomRolloutEvaluator(1, deal * 31 + p) for p in range(4)}
    bots = {
        p: pyspiel.ISMCTSBot(
            deal * 31 + p,
            evaluators[p],
            2.0,
            sims,
            -1,
            pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            False,
            False,
        )
        for p in range(4)
        if p != ours
    }
    times: list[float] = []

    def ours_to_act(seat: int) -> str:
        start = time.perf_counter()
        action = choose(s, seat, level, seed=deal * 7 + seat, limit=samples)
        if len(s.legal_actions(seat)) > 1:
            times.append(time.perf_counter() - start)
        return action

    if kind != "hold":
        for p in range(4):
            action = ours_to_act(p) if p == ours else choose(s, p, "standard", 0.0, seed=0)
            for card in parse_pass(action):
                theirs.apply_action(to_openspiel(from_card(card)))
            s.apply(p, action)
    while not s.history:
        p = theirs.current_player()
        if p != s.turn:
            raise AssertionError(f"the engines disagree on the turn: {p} and {s.turn}")
        if p == ours:
            action = ours_to_act(p)
            c = from_card(parse_play(action))
        else:
            c = from_openspiel(bots[p].step(theirs))
            action = str(to_card(c))
        theirs.apply_action(to_openspiel(c))
        s.apply(p, action)
    if not theirs.is_terminal():
        raise AssertionError("OpenSpiel's hand is not over when ours is")
    h = s.history[0]
    return Hand(list(h["scores"]), list(h["taken"]), h["moon"], record(s, deal, ours, level)), times


def record(s: State, deal: int, ours: int | None, level: str) -> dict[str, Any]:
    """What ``--log`` keeps of the hand ``s`` played (hand of game ``deal``, our level in seat
    ``ours``): those, and the game's own record of the hand."""
    h = s.history[0]
    return {"number": deal, "kind": h["direction"], "ours": ours, "level": level, **h}


def show_hand(logged: dict[str, Any]) -> str:
    """A logged hand (``--log``) replayed: the seats' cards once passed, then every trick with
    who played what, who took it and the points so far."""
    s = State.new(seed=logged["number"], rules=MODERN)
    s.hand_number = HAND_NUMBERS[logged["kind"]]
    s._deal()
    for seat, cards in enumerate(logged["passes"]):
        if cards:
            s.apply(seat, cards)
    ours = logged["ours"]
    who = "ISMCTS in every seat" if ours is None else f"{logged['level']} in seat {ours}"
    moon = "" if logged["moon"] is None else f", seat {logged['moon']} shot the moon"
    lines = [f"deal {logged['number']} ({logged['kind']}), {who}: scores {logged['scores']}{moon}"]
    for seat, hand in enumerate(s.hands):
        cards = " ".join(str(to_card(c)) for c in cards_of(hand))
        lines.append(f"{'*' if seat == ours else ' '} seat {seat}: {cards}")
    trick: list[str] = []
    n = 0
    for card in logged["plays"].split():
        player = s.turn
        assert player is not None  # a card to play: someone is to play it
        trick.append(f"{player}:{card}")
        s.apply(player, card)
        if len(trick) == 4:
            n += 1
            points = s.points if n < 13 else logged["taken"]
            lines.append(f"  trick {n:>2}  {'  '.join(trick)}   points {points}")
            trick = []
    return "\n".join(lines)


def duplicate(
    job: tuple[int, str, str, int, int | None],
) -> tuple[list[tuple[Hand, Hand]], list[float]]:
    """One deal of one kind: ISMCTS's four seats, then our level in each seat in turn; per
    seat (our hand, ISMCTS's hand), and our decision times."""
    deal, kind, level, sims, samples = job
    base, _ = play_hand(deal, kind, None, level, sims, samples)
    pairs = []
    times: list[float] = []
    for seat in range(4):
        mine, t = play_hand(deal, kind, seat, level, sims, samples)
        pairs.append((mine, base))
        times += t
    return pairs, times


def report(kind: str, per_deal: list[list[tuple[Hand, Hand]]]) -> str:
    """Points per hand, ours and ISMCTS's, the difference with a 95% interval over deals, and
    how often the seat took the queen, shot the moon or had it shot against it."""
    diffs = [
        statistics.fmean(a.scores[s] - b.scores[s] for s, (a, b) in enumerate(d)) for d in per_deal
    ]
    seats = [(s, a, b) for d in per_deal for s, (a, b) in enumerate(d)]
    n = len(seats)

    def rate(test: Any) -> str:
        mine = sum(test(a, s) for s, a, _ in seats) / n
        theirs = sum(test(b, s) for s, _, b in seats) / n
        return f"{mine:.3f}/{theirs:.3f}"

    diff = statistics.fmean(diffs)
    half = Z95 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.nan
    ours = statistics.fmean(a.scores[s] for s, a, _ in seats)
    base = statistics.fmean(b.scores[s] for s, _, b in seats)
    queen = rate(lambda h, s: h.moon is None and h.taken[s] >= 13)
    shot = rate(lambda h, s: h.moon == s)
    against = rate(lambda h, s: h.moon is not None and h.moon != s)
    return (
        f"{kind:>6} {len(diffs):>5} {ours:>6.2f} {base:>7.2f} {diff:>+6.2f} ±{half:.2f}   "
        f"queen {queen}  moon shot {shot}  against {against}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40, help="deals per pass kind")
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument("--kinds", default="hold,left", help="of left, right, across, hold")
    parser.add_argument("--level", default="expert", help="our level (beginner, standard, expert)")
    parser.add_argument("--sims", type=int, default=1000, help="ISMCTS simulations a card")
    parser.add_argument(
        "--samples", type=int, default=400, help="our expert's sampled deals a decision"
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--log", help="write every hand played to this file, one JSON line each")
    parser.add_argument("--show", help="print the moons against our seat in this --log file")
    add_settings_option(parser)
    args = parser.parse_args()
    if args.show:
        with open(args.show, encoding="utf-8") as f:
            for logged in map(json.loads, f):
                if logged["ours"] is not None and logged["moon"] not in (None, logged["ours"]):
                    print(show_hand(logged), end="\n\n")
        return
    _load_openspiel()
    apply_settings(args.set)
    kinds = args.kinds.split(",")
    unknown = set(kinds) - set(HAND_NUMBERS)
    if unknown:
        parser.error(f"unknown kinds: {', '.join(sorted(unknown))}")
    deals = range(args.first_deal, args.first_deal + args.deals)
    jobs = [(d, k, args.level, args.sims, args.samples) for k in kinds for d in deals]
    start = time.perf_counter()
    results: dict[str, list[list[tuple[Hand, Hand]]]] = {k: [] for k in kinds}
    times: list[float] = []
    with ProcessPoolExecutor(args.workers) as pool, contextlib.ExitStack() as stack:
        log = stack.enter_context(open(args.log, "w", encoding="utf-8")) if args.log else None
        answers = zip(jobs, pool.map(duplicate, jobs), strict=True)
        for n, ((_, kind, *_), (pairs, t)) in enumerate(answers, 1):
            results[kind].append(pairs)
            times += t
            if log:
                for hand in [pairs[0][1]] + [mine for mine, _ in pairs]:
                    log.write(json.dumps(hand.record) + "\n")
            if n % 20 == 0:
                print(
                    f"  {n}/{len(jobs)} deals, {time.perf_counter() - start:.0f} s", file=sys.stderr
                )
    print(
        f"{args.level} ({args.samples} samples) against ISMCTS ({args.sims} simulations), "
        f"deals {deals.start}..{deals.stop - 1}, points per hand (lower is better), "
        f"rates ours/ISMCTS"
    )
    print(f"{'kind':>6} {'deals':>5} {'ours':>6} {'ISMCTS':>7} {'diff':>6}")
    for kind in kinds:
        print(report(kind, results[kind]))
    if len(kinds) > 1:
        print(report("all", [d for k in kinds for d in results[k]]))
    if times:
        times.sort()
        print(
            f"our decisions: {len(times)}, median {statistics.median(times) * 1000:.1f} ms, "
            f"p99 {times[int(len(times) * 0.99)] * 1000:.1f} ms; "
            f"{time.perf_counter() - start:.0f} s in all"
        )


if __name__ == "__main__":
    main()
