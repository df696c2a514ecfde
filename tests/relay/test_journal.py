"""The relay's replay window: sparse upstream seqs, latest per pair, time and count bounds."""

from __future__ import annotations

from oddstui.relay.journal import Relayed, RelayJournal


def change(seq: int, event_id: int = 1, bookie: str = "Bet365", kind: str = "updated") -> Relayed:
    return Relayed(seq, kind, event_id, bookie, f'{{"seq":{seq}}}')


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_replay_gives_the_latest_change_per_pair_in_seq_order() -> None:
    journal = RelayJournal()
    journal.restart(100)
    for item in (change(103, 1), change(110, 2), change(111, 1), change(120, 3, "Pinnacle")):
        assert journal.append(item)
    replay = journal.replay_since(103)
    assert replay is not None
    assert [c.seq for c in replay] == [110, 111, 120]
    assert [c.seq for c in journal.replay_since(100) or []] == [110, 111, 120]
    assert journal.replay_since(120) == []


def test_a_last_seq_between_sparse_seqs_is_inside_the_window() -> None:
    journal = RelayJournal()
    journal.restart(100)
    journal.append(change(150))
    # Nothing was relayed between 100 and 150: a client at 120 missed only 150.
    assert [c.seq for c in journal.replay_since(120) or []] == [150]


def test_outside_the_window_or_ahead_is_none() -> None:
    journal = RelayJournal()
    journal.restart(100)
    journal.append(change(101))
    assert journal.replay_since(99) is None  # before the stream started here
    assert journal.replay_since(102) is None  # ahead of the relay


def test_old_and_equal_seqs_are_refused() -> None:
    journal = RelayJournal()
    journal.restart(100)
    assert journal.append(change(105))
    assert not journal.append(change(105))
    assert not journal.append(change(90))
    assert journal.seq == 105 and len(journal) == 1


def test_entries_leave_by_time_and_the_floor_follows() -> None:
    clock = Clock()
    journal = RelayJournal(window=10.0, clock=clock)
    journal.restart(0)
    journal.append(change(5, 1))
    clock.now = 6.0
    journal.append(change(8, 2))
    clock.now = 12.0  # the first entry is now 12 s old
    assert journal.replay_since(4) is None
    assert [c.seq for c in journal.replay_since(5) or []] == [8]
    assert journal.floor == 5


def test_entries_leave_by_count_and_a_pair_keeps_its_latest() -> None:
    journal = RelayJournal(max_entries=3)
    journal.restart(0)
    for seq, event_id in ((1, 1), (2, 2), (3, 1), (4, 3), (5, 4)):
        journal.append(change(seq, event_id))
    assert journal.floor == 2
    assert [c.seq for c in journal.replay_since(2) or []] == [3, 4, 5]


def test_restart_forgets_everything_before() -> None:
    journal = RelayJournal()
    journal.restart(10)
    journal.append(change(11))
    journal.restart(500)
    assert journal.replay_since(11) is None
    assert journal.replay_since(500) == []
    assert journal.append(change(501))
