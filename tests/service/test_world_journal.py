"""The odds journal: seq, compaction for replay, the bounded window."""

from __future__ import annotations

from oddstui.service.world.journal import Journal


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_seq_strictly_increases_and_entries_are_kept_in_order():
    journal = Journal(real_clock=FakeClock())
    first = journal.append([(1, "A", "created"), (1, "B", "created")], 10.0)
    second = journal.append([(1, "A", "updated")], 11.0)
    seqs = [e.seq for e in first + second]
    assert seqs == sorted(seqs) and len(set(seqs)) == 3
    assert journal.seq == seqs[-1]
    assert [e.kind for e in journal.entries()] == ["created", "created", "updated"]
    assert second[0].ts == 11.0


def test_replay_is_compacted_to_the_latest_entry_per_pair_in_seq_order():
    journal = Journal(real_clock=FakeClock())
    journal.append([(1, "A", "created"), (2, "A", "created")], 1.0)
    mark = journal.seq
    journal.append([(1, "A", "updated"), (2, "B", "updated")], 2.0)
    journal.append([(1, "A", "no_markets")], 3.0)
    journal.append([(2, "B", "updated"), (3, "A", "created")], 4.0)
    replay = journal.replay_since(mark)
    assert replay is not None
    assert [(e.event_id, e.bookie, e.type) for e in replay] == [
        (1, "A", "no_markets"), (2, "B", "updated"), (3, "A", "created"),
    ]
    assert [e.seq for e in replay] == sorted(e.seq for e in replay)
    assert journal.replay_since(journal.seq) == []


def test_replay_outside_the_window_is_refused():
    clock = FakeClock()
    journal = Journal(replay_window=600.0, real_clock=clock)
    journal.append([(1, "A", "created")], 1.0)
    old = journal.seq
    clock.now = 601.0
    journal.append([(1, "A", "updated")], 2.0)
    assert journal.replay_since(old - 1) is None  # the entry after it has left the window
    assert journal.replay_since(old) is not None
    assert journal.replay_since(journal.seq + 1) is None  # ahead of the current seq
    assert journal.replay_since(-5) is None


def test_the_window_is_also_bounded_by_count():
    journal = Journal(max_entries=100, real_clock=FakeClock())
    for i in range(30):
        journal.append([(i, "A", "updated"), (i, "B", "updated"), (i, "C", "updated"),
                        (i, "D", "updated"), (i, "E", "updated")], float(i))
    assert len(journal) == 100
    assert journal.oldest_seq == journal.seq - 99
    assert journal.replay_since(journal.seq - 100) is not None
    assert journal.replay_since(journal.seq - 101) is None


def test_long_runs_trim_storage():
    clock = FakeClock()
    journal = Journal(replay_window=10.0, real_clock=clock)
    for i in range(20_000):
        clock.now = i * 0.01
        journal.append([(i, "A", "updated")], float(i))
    assert len(journal) <= 1001
    assert len(journal._entries) < 10_000  # the list itself is cut back, not just the head
    replay = journal.replay_since(journal.seq - 5)
    assert replay is not None and len(replay) == 5


def test_changed_since_uses_simulated_timestamps():
    journal = Journal(real_clock=FakeClock())
    journal.append([(1, "A", "updated")], 100.0)
    journal.append([(1, "A", "updated"), (2, "A", "updated")], 200.0)
    journal.append([(3, "A", "updated")], 300.0)
    assert [(e.event_id, e.timestamp) for e in journal.changed_since(150.0)] == [
        (1, 200.0), (2, 200.0), (3, 300.0),
    ]
    assert journal.changed_since(301.0) == []


def test_a_restarted_world_never_reuses_the_seqs_of_the_one_before() -> None:
    from oddstui.service.world import World

    first = World(seed=1, updates_per_second=2000, real_clock=lambda: 0.0)
    for _ in range(10):
        first.advance(1.0)
    assert first.journal.seq > first.journal.oldest_seq  # it wrote entries
    second = World(seed=1, real_clock=lambda: 0.0)
    assert second.journal.seq > first.journal.seq
    # A client resuming with the old service's cursor is told to resync, never replayed short.
    assert second.journal.replay_since(first.journal.seq) is None
