""" "Your record on <problem> was beaten" (issue 40): told when a recorded result
(app/submissions.py:record) beats the top of a board held by another learner; not for one's
own record, a slower time, another GPU kind or track, or a board without timing."""

from __future__ import annotations

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app import submissions
from app.models import SubmissionCreate, User
from app.social import notifications
from app.social.models import Notification


def _user(engine: Engine, name: str) -> User:
    with Session(engine) as s:
        u = s.exec(select(User).where(User.username == name)).first()
        if u is None:
            u = User(username=name, password_hash="x")
            s.add(u)
            s.commit()
            s.refresh(u)
        return u


def _graded(
    engine: Engine,
    name: str,
    score_ms: float | None,
    kind: str = "h100",
    language: str = "triton",
    verdict: str = "accepted",
) -> int:
    """A submission of ``name`` claimed and recorded as a worker does."""
    with Session(engine) as s:
        sub = submissions.create(
            s,
            _user(engine, name),
            SubmissionCreate(problem="toy-add", language=language, source="x"),
            kind,
        )
        assert sub.id is not None
        sid = sub.id
    attempt = submissions.claim(engine, sid, "w", 60)
    assert attempt is not None
    result = {"verdict": verdict, "score_ms": score_ms, "cases": []}
    assert submissions.record(engine, sid, attempt, result)
    return sid


def _told(engine: Engine, name: str) -> list[Notification]:
    uid = _user(engine, name).id
    assert uid is not None
    with Session(engine) as s:
        return notifications.latest(s, uid)


def test_the_holder_is_told_when_their_record_is_beaten(engine: Engine) -> None:
    _graded(engine, "alice", 1.0)
    _graded(engine, "bob", 1.5)  # slower: alice keeps the record
    _graded(engine, "alice", 0.9)  # her own record, beaten by herself
    assert _told(engine, "alice") == []
    _graded(engine, "bob", 0.6)
    told = _told(engine, "alice")
    assert len(told) == 1 and told[0].kind == notifications.RECORD_BEATEN
    assert told[0].text == (
        "Your record on toy-add (H100, kernel track) was beaten: bob ran it in 600.0 µs, "
        "yours 900.0 µs."
    )
    assert told[0].link == "/leaderboard/toy-add?gpu=h100&track=kernel"
    assert _told(engine, "bob") == []
    _graded(engine, "carol", 0.7)  # second place beats nobody's record
    assert len(_told(engine, "bob")) == 0 and len(_told(engine, "alice")) == 1


def test_other_boards_and_untimed_results_beat_no_record(engine: Engine) -> None:
    _graded(engine, "alice", 1.0)
    _graded(engine, "bob", 0.1, kind="a100")  # another GPU kind's board
    _graded(engine, "bob", 0.1, language="pytorch")  # the framework track's board
    _graded(engine, "bob", 0.1, verdict="wrong_answer")
    _graded(engine, "bob", None, kind="h100")  # no timing
    assert _told(engine, "alice") == []
    # The framework board has its own record: bob's 0.1 ms; dave beats it there.
    _graded(engine, "dave", 0.05, language="pytorch")
    assert "framework track" in _told(engine, "bob")[0].text


def test_mark_read_marks_only_ones_own(engine: Engine) -> None:
    a, b = _user(engine, "alice"), _user(engine, "bob")
    assert a.id is not None and b.id is not None
    with Session(engine) as s:
        notifications.notify(s, a.id, notifications.REPLY, "one", "/x")
        notifications.notify(s, a.id, notifications.REPLY, "two", "/y")
        notifications.notify(s, b.id, notifications.REPLY, "bob's", "/z")
        s.commit()
        first = notifications.latest(s, a.id)[-1].id
        bobs = notifications.latest(s, b.id)[0].id
        assert first is not None and bobs is not None
        assert notifications.mark_read(s, a.id, [first, bobs]) == 1
        assert notifications.unread_count(s, a.id) == 1
        assert notifications.unread_count(s, b.id) == 1
        assert notifications.mark_read(s, a.id) == 1
        assert notifications.unread_count(s, a.id) == 0
