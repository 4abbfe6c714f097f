"""Hearts AI tournaments on duplicate deals, and time per decision.

Each deal is played once by four copies of the baseline level, then four more times with the
tested level in each seat in turn (the other three seats the baseline). The tested level's points
are compared with what the baseline took from the same seat of the same deal, so the luck of the
cards cancels. Hands are single hands scored with the moon rule, reported by kind: a passing hand
(pass left) and a hold hand (no passing) of each deal, as points per hand with a 95% interval of
the difference (deals are the unit: the four seats of a deal are averaged first).

``--samples N`` gives every searched decision a fixed number of sampled deals (the search's
``limit``), so the figures do not depend on the machine's load; without it the searches run on a
time budget (``--budget``) and the decision times are the figures to read.

Levels besides the game's own: ``baseline`` is the expert as it was before issue 16, frozen in
``bench/strength/hearts_baseline.py`` (the searched pass); ``current`` is the frozen search's play
with the heuristic pass, the expert as it was before the hold-hand work. None of that work was kept,
so ``current`` plays card for card as the expert does today: it is the reference for the next change
to the play search. On hold hands (no pass) all three are the same player. ``plain`` is the standard
level as it was before it learnt to unload high cards. The default run sets the expert against
``baseline``: what the heuristic pass gained over the searched one.

    python -m bench.strength.hearts                       # expert v baseline, 20 deals, 0.25 s
    python -m bench.strength.hearts --match expert:current --samples 40   # after a search change
    python -m bench.strength.hearts --samples 40 --deals 100   # fixed samples: load-independent
    python -m bench.strength.hearts --full                # 60 deals at the default budget 0.5 s
    python -m bench.strength.hearts --ladder              # every level v the others, random
    python -m bench.strength.hearts --match expert:baseline --kind hold --samples 40
    python -m bench.strength.hearts --match standard:plain --deals 1000
    python -m bench.strength.hearts --kind hold --samples 30 --deals 100 --set OTHERS_WEIGHT=0.3
    python -m bench.strength.hearts --match expert:current --samples 1600 --base-samples 400
    PARLOUR_HEARTS_CORE=python python -m bench.strength.hearts --samples 40   # Python roll-outs
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from itertools import combinations

from bench.strength import hearts_baseline
from games.hearts import LEVELS, HeartsView, State, choose, search
from games.hearts.actions import format_pass, format_play
from games.hearts.cardbits import cards_of, to_card
from games.hearts.knowledge import Knowledge, parse_mask
from games.hearts.policy import pass_cards, pick
from games.hearts.rules import PassDirection, Rules, first_leader
from games.hearts.search import play_out

RANDOM = "random"
BASELINE = "baseline"
CURRENT = "current"
PLAIN = "plain"
KINDS = {"pass": 0, "hold": 3}  # hand numbers: the first hand passes left, the fourth holds
Z95 = 1.96


def deal_state(deal: int, kind: str) -> State:
    """The hand of game ``deal`` with that kind of passing (its own shuffle, as in a game)."""
    state = State.new(seed=deal)
    if KINDS[kind]:
        state.hand_number = KINDS[kind]
        state._deal()
    return state


def _random_action(state: State, seat: int, rng: random.Random) -> str:
    if state.phase.value == "pass":
        hand = state.hand(seat)
        return "pass-" + "-".join(str(c) for c in rng.sample(hand, 3))
    return rng.choice(state.legal_actions(seat))


def frozen_choose(
    view: HeartsView, budget: float, seed: int, samples: int | None, searched_pass: bool
) -> str:
    """The frozen expert's action (``bench/strength/hearts_baseline.py``), on a time budget or
    with a fixed number of sampled deals; ``searched_pass=False``: the heuristic's pass
    instead."""
    seat = view["seat"]
    assert seat is not None  # a seat's view: the players decide from their own
    limits: dict[str, int] = {} if samples is None else {"min_samples": samples}
    if samples is not None:
        limits["max_samples"] = samples
        budget = 1e9
    hand = parse_mask(view["hand"])
    if view["phase"] == "pass":
        if not searched_pass:
            return format_pass(to_card(c) for c in cards_of(pass_cards(hand, True)))
        rng = random.Random(f"hearts-pass:{seed}:{seat}:{view['hand_number']}")
        passed = hearts_baseline.search_pass(
            seat,
            hand,
            Rules.from_dict(view["rules"]),
            PassDirection(view["pass_direction"]).offset,
            first_leader(view["dealer"]),
            budget * 0.9,
            rng,
            **limits,
        )
        return format_pass(to_card(c) for c in cards_of(passed))
    k = Knowledge.from_view(view)
    legal = k.legal()
    if not legal & (legal - 1):
        return format_play(to_card(legal.bit_length() - 1))
    rng = random.Random(f"hearts-ai:{seed}:{seat}:{len(view['played'])}")
    return format_play(to_card(hearts_baseline.search_play(k, budget * 0.9, rng, **limits)))


def plain_choose(view: HeartsView) -> str:
    """The standard level before this round: the smart rule-based player without ``sharp``."""
    hand = parse_mask(view["hand"])
    if view["phase"] == "pass":
        return format_pass(to_card(c) for c in cards_of(pass_cards(hand, True)))
    k = Knowledge.from_view(view)
    trick = list(k.trick)
    card = pick(k.seat, k.hand, k.legal(), trick, k.leader, k.played, list(k.points), True)
    return format_play(to_card(card))


class Player:
    """Decides for any level; with fixed samples every decision is a function of the view, so
    the duplicate runs of a deal reuse the decisions they share (``cache``). ``per_level``
    gives a level a sample count of its own (``--base-samples``)."""

    def __init__(
        self, budget: float, samples: int | None, per_level: dict[str, int] | None = None
    ) -> None:
        self.budget = budget
        self.samples = samples
        self.per_level = per_level or {}
        self.cache: dict[tuple[str, str], str] = {}

    def __call__(self, state: State, seat: int, level: str, seed: int) -> str:
        view = state.view(seat)
        samples = self.per_level.get(level, self.samples)
        key = (level, json.dumps(view, sort_keys=True)) if samples is not None else None
        if key is not None and key in self.cache:
            return self.cache[key]
        if level == PLAIN:
            action = plain_choose(view)
        elif level in (BASELINE, CURRENT):
            action = frozen_choose(view, self.budget, seed, samples, level == BASELINE)
        else:
            action = choose(view, seat, level, self.budget, seed, limit=samples)
        if key is not None:
            self.cache[key] = action
        return action


def play_hand(
    deal: int, levels: tuple[str, ...], player: Player, kind: str = "pass"
) -> tuple[list[int], dict[str, list[float]]]:
    """Play one hand of game ``deal``; the scores and the decision times per level (decisions
    taken from the cache are not timed)."""
    state = deal_state(deal, kind)
    rng = random.Random(deal)
    times: dict[str, list[float]] = {}
    while not state.history:
        for seat in state.to_act():
            level = levels[seat]
            forced = state.phase.value == "play" and len(state.legal_actions(seat)) == 1
            cached = len(player.cache)
            start = time.perf_counter()
            if level == RANDOM:
                action = _random_action(state, seat, rng)
            else:
                action = player(state, seat, level, deal * 7 + seat)
            elapsed = time.perf_counter() - start
            if not forced and (player.samples is None or len(player.cache) > cached):
                times.setdefault(level, []).append(elapsed)
            state.apply(seat, action)
    return list(state.history[0]["scores"]), times


def _duplicate(
    args: tuple[int, str, str, float, int | None, str, int | None],
) -> tuple[list[tuple[int, int]], dict[str, list[float]]]:
    """One deal: the baseline's four seats, then the tested level in each seat in turn."""
    deal, tested, base, budget, samples, kind, base_samples = args
    player = Player(budget, samples, {base: base_samples} if base_samples else None)
    base_scores, times = play_hand(deal, (base,) * 4, player, kind)
    pairs = []
    for seat in range(4):
        levels = tuple(tested if s == seat else base for s in range(4))
        scores, t = play_hand(deal, levels, player, kind)
        for k, v in t.items():
            times.setdefault(k, []).extend(v)
        pairs.append((scores[seat], base_scores[seat]))
    return pairs, times


def summary(per_deal: list[list[tuple[int, int]]]) -> dict[str, float]:
    """Points per hand of each side and their difference with a 95% interval over deals."""
    a = [p[0] for d in per_deal for p in d]
    b = [p[1] for d in per_deal for p in d]
    means = [statistics.fmean(x - y for x, y in d) for d in per_deal]
    se = statistics.stdev(means) / math.sqrt(len(means)) if len(means) > 1 else float("nan")
    diff = statistics.fmean(means)
    return {
        "tested": statistics.fmean(a),
        "base": statistics.fmean(b),
        "diff": diff,
        "lo": diff - Z95 * se,
        "hi": diff + Z95 * se,
        "hands": len(a),
        "deals": len(means),
    }


def match(
    tested: str,
    base: str,
    deals: list[int],
    budget: float,
    samples: int | None,
    pool: Executor | None,
    kind: str = "pass",
    base_samples: int | None = None,
) -> tuple[list[list[tuple[int, int]]], dict[str, list[float]]]:
    """Every deal's (tested, baseline) points per seat, and the decision times; the baseline
    searches ``base_samples`` sampled deals a decision where given, else ``samples``."""
    if base_samples and base == tested:
        raise ValueError("--base-samples needs a baseline level other than the tested one")
    per_deal: list[list[tuple[int, int]]] = []
    times: dict[str, list[float]] = {}
    work = [(d, tested, base, budget, samples, kind, base_samples) for d in deals]
    results = pool.map(_duplicate, work) if pool else map(_duplicate, work)
    for pairs, t in results:
        per_deal.append(pairs)
        for k, v in t.items():
            times.setdefault(k, []).extend(v)
    return per_deal, times


def playout_speed(hands_n: int = 200, reps: int = 7) -> tuple[float, float]:
    """Microseconds per whole-hand playout: the search's (engine rules) and the baseline's
    (inline rules), on the same fresh deals, alternated in one process; medians of ``reps``."""
    deals = []
    for seed in range(hands_n):
        s = State.new(seed=seed)
        deals.append((s.rules, list(s.hands), first_leader(s.dealer)))
    runs: dict[str, list[float]] = {"engine": [], "inline": []}
    for _ in range(reps):
        for name, fn in (("engine", play_out), ("inline", hearts_baseline.play_out)):
            start = time.perf_counter()
            for rules, hands, lead in deals:
                fn(rules, list(hands), [], lead, 0, [0, 0, 0, 0], False, True)
            runs[name].append((time.perf_counter() - start) / hands_n * 1e6)
    return statistics.median(runs["engine"]), statistics.median(runs["inline"])


def add_settings_option(parser: argparse.ArgumentParser) -> None:
    """``--set NAME=VALUE``, repeatable: a setting of the expert's search to try."""
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="try a setting of the expert's search (e.g. OTHERS_WEIGHT=0.3)",
    )


def apply_settings(settings: list[str]) -> None:
    """Set the expert's search settings given as ``NAME=VALUE`` (``--set``), saying so."""
    for setting in settings:
        name, _, value = setting.partition("=")
        old = getattr(search, name)  # an unknown name fails here
        new = value.lower() in ("1", "true", "yes") if isinstance(old, bool) else type(old)(value)
        setattr(search, name, new)
        print(f"search.{name} = {new!r} (default {old!r})")


def _row(tested: str, base: str, kind: str, r: dict[str, float], secs: float) -> str:
    return (
        f"{tested:>9} vs {base:<9} {kind:>4} {r['deals']:>5.0f} {r['hands']:>5.0f} "
        f"{r['tested']:>8.2f} {r['base']:>8.2f} {r['diff']:>+7.2f}  "
        f"[{r['lo']:+.2f}, {r['hi']:+.2f}]   ({secs:.0f}s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="a few minutes (default)")
    mode.add_argument("--full", action="store_true", help="more deals, default budget")
    parser.add_argument("--deals", type=int, help="deals per match")
    parser.add_argument("--budget", type=float, help="seconds per searched decision")
    parser.add_argument(
        "--samples", type=int, help="fixed sampled deals per searched decision (no clock)"
    )
    parser.add_argument(
        "--base-samples",
        type=int,
        help="the baseline's own fixed sampled deals a decision (the sample count under test; "
        "the baseline must be another level, e.g. current)",
    )
    parser.add_argument(
        "--workers", "--jobs", type=int, default=1, help="processes (the machine is shared)"
    )
    parser.add_argument("--first-deal", type=int, default=1000)
    parser.add_argument("--ladder", action="store_true", help="every level v the others, random")
    parser.add_argument(
        "--match", action="append", metavar="TESTED:BASE", help="only these (e.g. expert:standard)"
    )
    parser.add_argument(
        "--kind", action="append", choices=sorted(KINDS), help="hand kinds (default: both)"
    )
    parser.add_argument("--no-speed", action="store_true", help="skip the playout timing")
    add_settings_option(parser)
    opts = parser.parse_args()
    apply_settings(opts.set)
    deals_n = opts.deals or (60 if opts.full else 20)
    budget = opts.budget or (0.5 if opts.full else 0.25)
    deals = list(range(opts.first_deal, opts.first_deal + deals_n))
    kinds = opts.kind or list(KINDS)
    how = f"{opts.samples} sampled deals per decision" if opts.samples else f"budget {budget}s"
    if opts.base_samples:
        if not opts.samples:
            parser.error("--base-samples needs --samples")
        how += f" ({opts.base_samples} for the baseline)"
    print(f"hearts bench: {deals_n} duplicate deals per match (x4 seats), {how}")
    pairings: list[tuple[str, str]] = [("expert", BASELINE)]
    if opts.ladder:
        pairings = [(hi, lo) for lo, hi in combinations(LEVELS, 2)]
        pairings.sort(key=lambda p: (LEVELS.index(p[0]), LEVELS.index(p[1])), reverse=True)
        pairings += [(level, RANDOM) for level in reversed(LEVELS)]
    if opts.match:
        pairings = [(t, b) for t, _, b in (m.partition(":") for m in opts.match)]
    all_times: dict[str, list[float]] = {}
    print(
        f"{'tested':>9} vs {'baseline':<9} {'hand':>4} {'deals':>5} {'hands':>5} "
        f"{'tested':>8} {'base':>8} {'diff':>7}  95% interval   (points per hand, lower wins)"
    )
    pool = ProcessPoolExecutor(opts.workers) if opts.workers > 1 else None
    try:
        for tested, base in pairings:
            both: list[list[tuple[int, int]]] = []
            for kind in kinds:
                start = time.perf_counter()
                per_deal, t = match(
                    tested, base, deals, budget, opts.samples, pool, kind, opts.base_samples
                )
                both += per_deal
                for k, v in t.items():
                    all_times.setdefault(k, []).extend(v)
                secs = time.perf_counter() - start
                print(_row(tested, base, kind, summary(per_deal), secs), flush=True)
            if len(kinds) > 1:
                print(_row(tested, base, "all", summary(both), 0.0), flush=True)
    finally:
        if pool:
            pool.shutdown()
    print("\ntime per decision (passes and unforced plays; with --samples, computed ones only)")
    for level in (*LEVELS, BASELINE, CURRENT, PLAIN, RANDOM):
        ts = sorted(all_times.get(level, []))
        if not ts:
            continue
        p99 = ts[min(len(ts) - 1, math.ceil(0.99 * len(ts)) - 1)]
        print(
            f"  {level:>9}: median {statistics.median(ts) * 1000:8.2f} ms  "
            f"p99 {p99 * 1000:8.2f} ms  max {ts[-1] * 1000:8.2f} ms  (n={len(ts)})"
        )
    if not opts.no_speed:
        engine, inline = playout_speed()
        print(
            f"\nsearch playout, one whole hand: engine rules {engine:.1f} us, baseline's inline "
            f"rules {inline:.1f} us (ratio {engine / inline:.3f})"
        )


if __name__ == "__main__":
    main()
