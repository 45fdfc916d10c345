"""Courses and their members: creating, joining by invite code, the roster, and who may do what.

Permissions, in one place:
- the instructor role (``User.is_instructor``): granted and taken away by admins only
  (``set_instructor``); nothing a class's instructors do grants it;
- creating a class: admins and instructors;
- managing a class (roster, assignments, gradebook, similarity): admins, and the class's own
  instructors (members with the instructor role; its creator is one). They may invite an
  existing instructor to co-teach (``invite``); the invited person becomes one only by
  accepting (``answer``); only the creator or an admin removes the creator;
- seeing a student's code: admins, and instructors of a class that person is a *student* of
  (``teaches``; ``app/visibility.py`` asks it): a co-instructor's code stays theirs.
"""

from __future__ import annotations

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from app import accounts
from app.classes.models import Assignment, Course, CourseMember, Role
from app.classes.schemas import CourseCreate
from app.models import User


class ClassError(ValueError):
    """Refused or bad input; ``status`` is the HTTP status to answer with (and, for a 429,
    ``retry_after`` the seconds to wait)."""

    def __init__(self, message: str, status: int = 400, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after

    def headers(self) -> dict[str, str] | None:
        return {"Retry-After": str(self.retry_after)} if self.retry_after else None


def may_create(user: User) -> bool:
    return user.is_admin or user.is_instructor


def create_course(session: Session, user: User, data: CourseCreate, gpu_kinds: list[str]) -> Course:
    if not may_create(user):
        raise ClassError("only instructors and admins can create classes", 403)
    kind = data.gpu_kind or gpu_kinds[0]
    if kind not in gpu_kinds:
        raise ClassError(f"unknown GPU kind {kind!r}; this server has {', '.join(gpu_kinds)}")
    assert user.id is not None
    course = Course(
        name=data.name,
        term=data.term,
        gpu_kind=kind,
        invite_code=accounts.new_invite_code(),
        created_by=user.id,
    )
    session.add(course)
    session.flush()
    assert course.id is not None
    session.add(CourseMember(course_id=course.id, user_id=user.id, role=Role.INSTRUCTOR))
    session.commit()
    session.refresh(course)
    return course


def new_invite(session: Session, course: Course) -> Course:
    """A fresh invite code; the old one (and its link) stops working."""
    course.invite_code = accounts.new_invite_code()
    session.add(course)
    session.commit()
    session.refresh(course)
    return course


def by_code(session: Session, code: str) -> Course | None:
    """The class of an invite code as people type it: any case, the four groups separated by
    dashes, spaces or nothing (``accounts.new_invite_code`` makes ``abcd-efgh-ijkl-mnop``)."""
    typed = code.strip().lower()
    if not typed:
        return None
    letters = "".join(ch for ch in typed if ch.isalnum())
    grouped = "-".join(letters[i : i + 4] for i in range(0, len(letters), 4))
    return session.exec(select(Course).where(col(Course.invite_code).in_({typed, grouped}))).first()


def membership(session: Session, course_id: int, user_id: int) -> CourseMember | None:
    return session.exec(
        select(CourseMember).where(
            CourseMember.course_id == course_id, CourseMember.user_id == user_id
        )
    ).first()


def join(session: Session, user: User, code: str) -> Course:
    """Enrol ``user`` as a student of the class with this invite code (idempotent)."""
    course = by_code(session, code)
    if course is None or course.id is None:
        raise ClassError("that class invite code is not right", 404)
    assert user.id is not None
    m = membership(session, course.id, user.id)
    if m is not None and m.role == Role.INVITED:
        raise ClassError("you are invited to co-teach this class: answer on your Classes page", 409)
    if m is None:
        session.add(CourseMember(course_id=course.id, user_id=user.id, role=Role.STUDENT))
        try:
            session.commit()
        except IntegrityError:  # the same learner joined meanwhile (another tab)
            session.rollback()
    return course


def can_manage(session: Session, user: User | None, course: Course) -> bool:
    if user is None or user.id is None or course.id is None:
        return False
    if user.is_admin:
        return True
    m = membership(session, course.id, user.id)
    return m is not None and m.role == Role.INSTRUCTOR


def can_view(session: Session, user: User | None, course: Course) -> bool:
    if user is None or user.id is None or course.id is None:
        return False
    if user.is_admin:
        return True
    m = membership(session, course.id, user.id)
    return m is not None and m.role in (Role.STUDENT, Role.INSTRUCTOR)  # not an open invitation


def get_course(session: Session, course_id: int, user: User | None, manage: bool = False) -> Course:
    """The class, if ``user`` may see it (or manage it): else a ClassError (404 / 403)."""
    course = session.get(Course, course_id)
    if course is None or not can_view(session, user, course):
        raise ClassError("there is no such class, or you are not in it", 404)
    if manage and not can_manage(session, user, course):
        raise ClassError("only the class's instructors can do that", 403)
    return course


def find_course(session: Session, ref: str) -> Course:
    """A class by id or by exact name (the CLI's ``CLASS``); ClassError if none or ambiguous."""
    ref = ref.strip()
    if ref.isdigit():
        course = session.get(Course, int(ref))
        if course is not None:
            return course
    rows = session.exec(select(Course).where(Course.name == ref)).all()
    if not rows:
        raise ClassError(f"no class with id or name {ref!r}", 404)
    if len(rows) > 1:
        ids = ", ".join(str(c.id) for c in rows)
        raise ClassError(f"{len(rows)} classes are called {ref!r} (ids {ids}); give the id")
    return rows[0]


def roster(session: Session, course_id: int, role: Role | None = None) -> list[tuple[User, str]]:
    """(user, role) of every member, instructors first, then by username."""
    q = select(User, CourseMember.role).join(CourseMember, col(CourseMember.user_id) == User.id)
    q = q.where(CourseMember.course_id == course_id)
    if role is not None:
        q = q.where(CourseMember.role == role)
    rows = session.exec(q).all()
    order: dict[str, int] = {Role.INSTRUCTOR: 0, Role.INVITED: 1, Role.STUDENT: 2}
    return sorted(((u, r) for u, r in rows), key=lambda t: (order.get(t[1], 3), t[0].username))


def students(session: Session, course_id: int) -> list[User]:
    return [u for u, _ in roster(session, course_id, Role.STUDENT)]


def remove_member(session: Session, course: Course, user_id: int, by: User) -> None:
    """Take a student, a co-instructor or an open invitation off the roster (submissions
    stay). The creator is removed only by themselves or an admin, never by a co-instructor."""
    assert course.id is not None
    m = membership(session, course.id, user_id)
    if m is None:
        raise ClassError("that learner is not in this class", 404)
    if user_id == course.created_by and by.id != course.created_by and not by.is_admin:
        raise ClassError("only the class's creator or an admin can remove its creator", 403)
    if m.role == Role.INSTRUCTOR:
        left = roster(session, course.id, Role.INSTRUCTOR)
        if len(left) <= 1:
            raise ClassError("a class keeps at least one instructor")
    session.delete(m)
    session.commit()


def invite(session: Session, course: Course, username: str) -> User:
    """Invite an instructor (one an admin made) to co-teach; they answer (``answer``)."""
    assert course.id is not None
    who = session.exec(select(User).where(User.username == accounts.username_key(username))).first()
    if who is None or who.id is None:
        raise ClassError(f"there is no user called {username!r}", 404)
    if not (who.is_instructor or who.is_admin):
        raise ClassError(
            f"{who.username} is not an instructor: only an admin grants that role "
            "(Admin, Instructors); then invite them again",
            403,
        )
    m = membership(session, course.id, who.id)
    if m is not None and m.role == Role.INSTRUCTOR:
        raise ClassError(f"{who.username} already co-teaches this class", 409)
    if m is not None and m.role == Role.STUDENT:
        raise ClassError(f"{who.username} is a student of this class; remove them first", 409)
    if m is None:
        session.add(CourseMember(course_id=course.id, user_id=who.id, role=Role.INVITED))
        session.commit()
    return who


def answer(session: Session, course_id: int, user: User, accept: bool) -> Course:
    """The invited user accepts (becomes an instructor of the class) or declines."""
    assert user.id is not None
    m = membership(session, course_id, user.id)
    course = session.get(Course, course_id)
    if m is None or m.role != Role.INVITED or course is None:
        raise ClassError("there is no invitation to co-teach this class for you", 404)
    if not accept:
        session.delete(m)
    elif user.is_instructor or user.is_admin:
        m.role = Role.INSTRUCTOR
        session.add(m)
    else:
        raise ClassError("only instructors co-teach: an admin grants that role", 403)
    session.commit()
    return course


def my_courses(session: Session, user: User) -> list[tuple[Course, str]]:
    """(class, this user's role in it), newest first."""
    if user.id is None:
        return []
    rows = session.exec(
        select(Course, CourseMember.role)
        .join(CourseMember, col(CourseMember.course_id) == Course.id)
        .where(CourseMember.user_id == user.id)
        .order_by(col(Course.id).desc())
    ).all()
    return [(c, r) for c, r in rows]


def teaches(session: Session, instructor_id: int, student_id: int) -> bool:
    """Whether ``instructor_id`` instructs a class that ``student_id`` is a *student* of.

    Only a student membership counts: a co-instructor (or an invited one) is a colleague,
    whose code is theirs, not a learner who enrolled with the class's code."""
    mine = select(CourseMember.course_id).where(
        CourseMember.user_id == instructor_id, CourseMember.role == Role.INSTRUCTOR
    )
    row = session.exec(
        select(CourseMember.id).where(
            CourseMember.user_id == student_id,
            CourseMember.role == Role.STUDENT,
            col(CourseMember.course_id).in_(mine),
        )
    ).first()
    return row is not None


def set_instructor(session: Session, username: str, on: bool = True) -> User:
    """Grant (or take away) the instructor role: ``kerneldojo admin instructor`` and /admin."""
    who = session.exec(select(User).where(User.username == accounts.username_key(username))).first()
    if who is None:
        raise ClassError(f"there is no user called {username!r}", 404)
    who.is_instructor = on
    session.add(who)
    session.commit()
    session.refresh(who)
    return who


def assignments(session: Session, course_id: int) -> list[Assignment]:
    return list(
        session.exec(
            select(Assignment)
            .where(Assignment.course_id == course_id)
            .order_by(col(Assignment.due_at), col(Assignment.id))
        ).all()
    )


def class_code_of(engine: Engine, code: str) -> int | None:
    """The id of the class with this invite code (sign-up's check, outside a request session)."""
    with Session(engine) as session:
        course = by_code(session, code)
        return course.id if course is not None else None


def enrol(engine: Engine, user_id: int, course_id: int) -> None:
    """Sign-up with a class's code: the new learner is a student of that class."""
    with Session(engine) as session:
        if membership(session, course_id, user_id) is None:
            session.add(CourseMember(course_id=course_id, user_id=user_id, role=Role.STUDENT))
            session.commit()
