"""Who slapped first (RULES.md 11.6): latency, send stamps, reactions and the window.

The network is a model here (each player a one-way delay and, for the heartbeat,
an extra wait before answering), so every figure is exact: a card sent at
``t`` reaches a page ``delay`` later, the player reacts, and the slap takes
``delay`` again to come back. tests/play/test_slap_latency.py runs the
heartbeats through a real delayed TCP connection.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardwar.engine import SlapRules, SlapSetup, Verdict, parse_hands
from cardwar.engine.slap import SlapError, SlapGame, WindowOpenError, play_decided
from cardwar.tables.slap_judge import WINDOW, Judged, SlapJudge
from cardwar.tables.slap_timing import (
    LATENCY_CAP_MS,
    RoundTrips,
    SendStamps,
    SlapTiming,
    time_slap,
)


@dataclass
class Page:
    """One player's page and the way to it: ``delay`` s each way."""

    seat: int
    delay: float = 0.0
    answer: float = 0.0  # how long the page sits on a heartbeat before answering
    trips: RoundTrips = field(default_factory=RoundTrips)
    stamps: SendStamps = field(default_factory=SendStamps)

    def beat(self, start: float, count: int = 5) -> None:
        for k in range(count):
            sent = start + k
            number = self.trips.ping(sent)
            assert self.trips.pong(number, sent + 2 * self.delay + self.answer) is not None


class Table:
    """A judge, and the pages its cards are sent to (at once, as they are put down)."""

    def __init__(self, hands: str, pages: list[Page], **options: object) -> None:
        game = SlapSetup.from_hands(SlapRules.make(**options), parse_hands(hands)).new_game()
        self.judge = SlapJudge(game)
        self.pages = pages
        for page in pages:
            page.beat(-10.0)

    def put(self, now: float) -> int:
        self.judge.put_down(now)
        pile = self.judge.game.cards_played
        for page in self.pages:
            page.stamps.sent(pile, now)
        return pile

    def slaps(self, pile: int, reactions: dict[int, float]) -> list[Judged]:
        """Each seat in ``reactions`` reacts to card ``pile`` after that many s;
        the slaps reach the table in the order they arrive; the window is decided."""
        sent = {p.seat: p.stamps.at(pile) for p in self.pages}
        arrivals = []
        for page in self.pages:
            if page.seat in reactions:
                at = sent[page.seat] + 2 * page.delay + reactions[page.seat]  # type: ignore[operator]
                arrivals.append((at, page))
        for at, page in sorted(arrivals, key=lambda a: a[0]):
            self.judge.slap(page.seat, pile, at, time_slap(pile, at, page.stamps, page.trips))
        self.judge.poll(max(a[0] for a in arrivals) + WINDOW)
        return [j for j in self.judge.take_outbox() if isinstance(j, Judged)]


def winner(judged: list[Judged]) -> int | None:
    return next((j.seat for j in judged if j.verdict is Verdict.VALID), None)


# -- latency ----------------------------------------------------------------
def test_latency_is_half_the_median_of_the_last_five_round_trips_capped():
    trips = RoundTrips()
    assert trips.latency_ms == 0  # nothing measured: no credit
    for rtt in (40, 400, 60, 80, 100, 120):  # the first falls out
        trips.add(rtt)
    assert trips.trips == (400, 60, 80, 100, 120)
    assert trips.latency_ms == 50
    for rtt in (500, 600, 700):
        trips.add(rtt)
    assert trips.latency_ms == LATENCY_CAP_MS  # median 400 -> 200, capped


def test_a_heartbeat_counts_once_and_only_when_it_was_sent():
    trips = RoundTrips()
    first = trips.ping(1.0)
    assert trips.pong(first + 1, 1.01) is None  # a number not sent yet: answered early
    assert trips.pong(first, 1.08) == 80
    assert trips.pong(first, 1.09) is None  # answered twice
    assert trips.trips == (80,)
    old = trips.ping(2.0)
    for k in range(8):
        trips.ping(3.0 + k)
    assert trips.pong(old, 20.0) is None  # forgotten: far too old
    with pytest.raises(ValueError, match="a round trip of -1 ms"):
        trips.add(-1)


def test_a_card_keeps_its_first_send_stamp():
    stamps = SendStamps()
    stamps.sent(3, 10.0)
    stamps.sent(3, 12.5)  # sent again to another socket of the seat
    assert stamps.at(3) == 10.0
    assert stamps.at(4) is None
    trips = RoundTrips()
    trips.add(100)
    assert time_slap(3, 10.4, stamps, trips) == SlapTiming(10000, 10400, 50, 300)
    assert time_slap(4, 10.4, stamps, trips) is None


# -- the window and the order decided ---------------------------------------------
DOUBLE_BY_1 = "2C 5C / 2D 6D"  # card 2 (2D, by seat 1) makes a double
DOUBLE_BY_0 = "5C 2C / 2D 6D"  # card 3 (2C, by seat 0) makes a double


@pytest.mark.parametrize("delayed", [0, 1])
@pytest.mark.parametrize(("hands", "pile", "first_after_putter"),
                         [(DOUBLE_BY_1, 2, 0), (DOUBLE_BY_0, 3, 1)])
def test_equal_reactions_are_decided_by_the_seat_not_the_network(delayed, hands, pile,
                                                                 first_after_putter):
    pages = [Page(0), Page(1)]
    pages[delayed].delay = 0.150  # 150 ms each way: latency 150, at the cap
    table = Table(hands, pages)
    for k in range(pile):
        table.put(k * 1.0)
    judged = table.slaps(pile, {0: 0.300, 1: 0.300})
    assert [j.timing.reaction for j in judged] == [300, 300]
    assert pages[delayed].trips.latency_ms == 150
    assert winner(judged) == first_after_putter
    assert [j.verdict for j in judged] == [Verdict.VALID, Verdict.TOO_LATE]


@settings(max_examples=150, deadline=None)
@given(delays=st.tuples(st.integers(0, LATENCY_CAP_MS), st.integers(0, LATENCY_CAP_MS)),
       reactions=st.tuples(st.integers(120, 900), st.integers(120, 900)))
def test_the_faster_reaction_wins_whoever_arrives_first(delays, reactions):
    """Within the cap, whatever the delays: the measured reactions are the true ones
    (to the millisecond's rounding) and the faster takes the pile."""
    pages = [Page(s, d / 1000) for s, d in enumerate(delays)]
    table = Table(DOUBLE_BY_1, pages)
    table.put(0.0)
    table.put(1.0)
    judged = table.slaps(2, {s: r / 1000 for s, r in enumerate(reactions)})
    by_seat = {j.seat: j.timing.reaction for j in judged}
    assert all(abs(by_seat[s] - reactions[s]) <= 1 for s in (0, 1))
    if abs(reactions[0] - reactions[1]) > 2:
        assert winner(judged) == min((0, 1), key=lambda s: reactions[s])


@settings(max_examples=100, deadline=None)
@given(delay=st.integers(0, LATENCY_CAP_MS), answer=st.integers(0, 3000),
       reaction=st.integers(150, 900))
def test_delaying_only_the_heartbeat_answers_gains_at_most_the_cap(delay, answer, reaction):
    """A page that sits on its pongs is credited at most the cap of latency (150 ms
    one way): its reaction looks at most 2 x (150 - its true latency) quicker."""
    honest, cheat = Page(0, delay / 1000), Page(0, delay / 1000, answer=answer / 1000)
    gains = []
    for page in (honest, cheat):
        table = Table(DOUBLE_BY_1, [page, Page(1)])
        table.put(0.0)
        table.put(1.0)
        gains.append(table.slaps(2, {0: reaction / 1000})[0].timing.reaction)
    assert cheat.trips.latency_ms <= LATENCY_CAP_MS
    assert cheat.trips.latency_ms - honest.trips.latency_ms <= LATENCY_CAP_MS
    assert gains[0] - gains[1] <= 2 * (LATENCY_CAP_MS - delay) + 1
    assert gains[1] >= reaction - 2 * LATENCY_CAP_MS


def test_a_slap_within_the_window_is_heard_and_one_after_it_is_too_late():
    for late, verdicts in ((0.299, [Verdict.VALID, Verdict.TOO_LATE]),
                           (0.301, [Verdict.VALID, Verdict.TOO_LATE])):
        judge = SlapJudge(SlapGame(parse_hands(DOUBLE_BY_1)))
        judge.put_down(0.0)
        judge.put_down(1.0)
        judge.slap(0, 2, 1.400, SlapTiming(1000, 1400, 0, 400))
        assert judge.due() == pytest.approx(1.400 + WINDOW)
        judge.poll(1.400 + WINDOW - 0.001)
        assert not judge.judged  # still waiting for the others
        # a quicker reaction that arrives later: heard only within the window
        judge.slap(1, 2, 1.400 + late, SlapTiming(1000, 1400 + round(late * 1000), 150, 100))
        judge.poll(2.0)
        seats = [(j.seat, j.verdict) for j in judge.judged]
        expect_first = 1 if late < WINDOW else 0
        assert seats == list(zip([expect_first, 1 - expect_first], verdicts, strict=True))


def test_a_slap_names_its_pile():
    """Naming an earlier pile still on the table: valid if it was slappable (the
    slapper takes the pile as it is now), wrong if not; a pile taken since: too late."""
    judge = SlapJudge(SlapGame(parse_hands("2C 5C 9C / 2D 6D 8D")))
    for t in range(3):
        judge.put_down(float(t))  # 2C 2D (a double) 5C
    judge.slap(0, 1, 3.0)  # the pile of 2C alone: not slappable
    assert judge.judged[-1].verdict is Verdict.WRONG
    judge.slap(1, 2, 3.1)  # the double, still on the table under 5C
    judge.poll(4.0)
    assert judge.judged[-1].verdict is Verdict.VALID
    assert judge.game.counts()[1] == 2 + 4  # 6D 8D and 2C 2D 5C plus seat 0's burned 9C
    judge.slap(0, 2, 4.1)  # that pile is gone
    assert judge.judged[-1].verdict is Verdict.TOO_LATE
    assert [s.text() for s in judge.decided_slaps()] == ["1:0@3", "2:1@3"]
    with pytest.raises(SlapError):
        judge.slap(0, 9, 5.0)  # a card not put down yet
    with pytest.raises(SlapError):
        judge.slap(2, 1, 5.0)  # no such seat


def test_one_slap_per_player_per_pile():
    judge = SlapJudge(SlapGame(parse_hands("2C 5C 9C / 3D 6D 8D")))
    judge.put_down(0.0)
    judge.put_down(1.0)  # 2C 3D: nothing to slap
    judge.slap(0, 2, 1.3)
    judge.slap(0, 2, 1.4)
    assert [j.verdict for j in judge.judged] == [Verdict.WRONG, Verdict.AGAIN]
    assert judge.game.burned == 1


def test_a_computer_is_judged_by_its_drawn_reaction():
    judge = SlapJudge(SlapGame(parse_hands(DOUBLE_BY_1)))
    judge.put_down(0.0)
    judge.put_down(1.0)
    judge.slap(0, 2, 1.200, SlapTiming(1000, 1200, 0, 200))
    judge.computer_slap(1, 2, 190, 1.190 + 0.050)  # its timer fired a little late
    judge.poll(2.0)
    assert [(j.seat, j.verdict, j.timing.computer) for j in judge.judged] == [
        (1, Verdict.VALID, True), (0, Verdict.TOO_LATE, False)]
    assert judge.judged[0].json() == {"seat": 1, "pile": 2, "at": 2, "verdict": "valid",
                                      "sent": 1000, "arrived": 1240, "latency": 0,
                                      "reaction": 190, "computer": True}


def test_a_slap_never_sent_its_card_is_timed_from_the_put_down_without_credit():
    judge = SlapJudge(SlapGame(parse_hands(DOUBLE_BY_1)))
    judge.put_down(0.0)
    judge.put_down(1.0)
    judge.slap(1, 2, 1.25)
    judge.poll(2.0)
    assert judge.judged[0].timing == SlapTiming(1000, 1250, 0, 250)


def test_a_completed_payment_waits_at_least_the_window_before_its_trick():
    judge = SlapJudge(SlapGame(parse_hands("KC 2C 3C / 4D 5D 6D 7D")), trick_wait=0.5)
    for t in range(4):  # KC, then 4D 5D 6D pay for it
        judge.put_down(float(t))
    assert judge.game.window == 0
    assert judge.due() == 3.5
    judge.poll(3.49)
    with pytest.raises(WindowOpenError):
        judge.put_down(3.49)
    assert judge.game.tricks == 0
    judge.put_down(3.5)  # the wait is over: the trick is taken, then seat 0 puts down
    assert judge.game.tricks == 1
    assert judge.game.cards_played == 5
    with pytest.raises(ValueError, match="the trick wait at least the window"):
        SlapJudge(SlapGame(parse_hands(DOUBLE_BY_1)), trick_wait=0.1)


def test_a_valid_slap_on_a_completed_payment_comes_before_the_trick():
    judge = SlapJudge(SlapGame(parse_hands("9C 9H 2C / QD 3D 4D")))
    for t in range(3):  # 9C QD 9H: a sandwich while seat 0 pays for the queen
        judge.put_down(float(t))
    judge.slap(1, 3, 2.3, SlapTiming(2000, 2300, 0, 300))
    judge.put_down(2.4)  # seat 0 goes on paying meanwhile: 2C completes the payment
    judge.poll(2.4 + 5)
    assert judge.judged[0].verdict is Verdict.VALID
    assert judge.game.tricks == 0
    assert judge.game.winner == 1


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), rules=st.sampled_from(
    [SlapRules.make(card_limit=400), SlapRules.make("slapjack", card_limit=400),
     SlapRules.make(slap_in=False, burn=2, card_limit=400)]))
def test_the_decided_slaps_replay_the_same_game(seed, players, rules):
    """Whatever arrives when, the slaps the judge decided (``--slaps``) replay the game."""
    rng = random.Random(seed)
    setup = SlapSetup.from_seed(rules, players, f"judge-{seed}")
    judge = SlapJudge(setup.new_game())
    now = 0.0
    for _ in range(20_000):
        game = judge.game
        if game.over:
            break
        now += rng.choice([0.01, 0.05, 0.2, 0.4])
        due = judge.due()
        if due is not None and (game.window is not None or rng.random() < 0.5):
            now = max(now, due)
            judge.poll(now)
        elif game.cards_played and rng.random() < (0.8 if game.pattern() else 0.3):
            seat = rng.randrange(players)
            pile = max(0, game.cards_played - rng.choice([0, 0, 1, 2]))
            reaction = rng.randrange(100, 600)
            judge.slap(seat, pile, now, SlapTiming(0, reaction, 0, reaction))
        elif game.window is None:
            judge.poll(now)  # a pile whose wait is over is taken first: that may end the game
            if not judge.game.over:
                judge.put_down(now)
    before = judge.game
    assert before.over
    replayed = play_decided(setup, judge.decided_slaps())
    assert (replayed.outcome, replayed.winner, replayed.cards_played, replayed.slaps,
                replayed.burned, replayed.tricks, replayed.counts()) == (
            before.outcome, before.winner, before.cards_played, before.slaps,
            before.burned, before.tricks, before.counts())
