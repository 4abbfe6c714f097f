"""Kabu: hint and dealer decision times (medians), and the dealer rule's win rate against a
naive dealer (draws at 5 or less, like baccarat's banker by rote).
``python -m bench.perf.kabu [--quick]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from games.kabu import State, choose, dealer_beats, dealer_draws, hint, total
from games.kabu.state import ranks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    args = parser.parse_args()
    rounds = 500 if args.quick else 5000

    # Hint time for the first player to decide (the slowest: every position to the right still
    # waits for its second card), one to five players; ratios against one player.
    base = None
    for players in (1, 2, 3, 4, 5):
        times = []
        for seed in range(40 if players < 3 else 10 if args.quick else 20):
            s = State.new(players=players, seed=seed)
            while s.phase.value == "pick":
                (seat,) = s.to_act()
                s.apply(seat, s.legal_actions(seat)[0])
            (seat,) = s.to_act()
            start = time.perf_counter()
            hint(s, seat)
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        base = base or median
        print(
            f"hint, {players} player(s), first to decide: median {median * 1000:.1f} ms, "
            f"max {max(times) * 1000:.0f} ms, x{median / base:.1f} one player's"
        )

    # The dealer rule against a naive dealer, on the same rounds played by the best player AI.
    rule_wins = naive_wins = 0
    decide_times = []
    for seed in range(rounds):
        s = State.new(players=1, seed=seed)
        while not s.is_over():
            s.apply(0, choose(s, 0, "best", 1.0, seed))
        pick = s.picks[0]
        assert pick is not None  # the round is over, so the player has picked
        player = ranks(s.positions[pick])
        # Replay the dealer's decision from the moment it held two cards.
        two = ranks(s.dealer[:2])
        unseen = [0] + [4] * 13
        for card in [c for hand in s.positions for c in hand] + s.dealer[:2]:
            unseen[card.rank] -= 1
        start = time.perf_counter()
        draws = dealer_draws(two, [player], unseen, arashi=True)
        decide_times.append(time.perf_counter() - start)
        next_card = int(s.deck[s.next_card - 1 if s.dealer_drew else s.next_card].rank)
        rule_hand = (*two, next_card) if draws else two
        naive_hand = (*two, next_card) if total(two) <= 5 else two
        rule_wins += dealer_beats(rule_hand, player, arashi=True)
        naive_wins += dealer_beats(naive_hand, player, arashi=True)
    print(
        f"dealer decision: median {statistics.median(decide_times) * 1e6:.0f} us "
        f"over {rounds} rounds"
    )
    print(
        f"dealer win rate: rule {rule_wins / rounds:.1%}, naive (draw at <= 5) "
        f"{naive_wins / rounds:.1%}, ratio {rule_wins / max(1, naive_wins):.3f}"
    )


if __name__ == "__main__":
    main()
