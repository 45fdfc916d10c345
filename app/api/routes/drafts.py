"""Editor drafts on the server: a logged-in learner's unsent code per problem and language.

The editor saves a draft a moment after each change (and keeps a copy in the browser's own
storage for when the server cannot be reached); on another browser the page starts from the
server's copy. A draft is as large as a submission may be, no larger.
"""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, HTTPException, Response
from sqlmodel import Session, SQLModel, select

from app.deps import CurrentUser, RegistryDep, SessionDep, SettingsDep
from app.models import Draft, DraftSave, User, utcnow
from judge import languages

router = APIRouter(prefix="/drafts", tags=["drafts"])


class DraftPublic(SQLModel):
    problem: str
    language: str
    source: str
    updated_at: datetime


def drafts_of(session: Session, user: User, problem: str) -> list[Draft]:
    return list(
        session.exec(select(Draft).where(Draft.user_id == user.id, Draft.problem == problem)).all()
    )


@router.get("/{problem}", response_model=list[DraftPublic])
def list_drafts(problem: str, session: SessionDep, user: CurrentUser) -> list[Draft]:
    """The learner's drafts of a problem, one per language."""
    return drafts_of(session, user, problem)


@router.put("/{problem}/{language}", status_code=204)
def save_draft(
    problem: str,
    language: str,
    body: DraftSave,
    session: SessionDep,
    user: CurrentUser,
    registry: RegistryDep,
    settings: SettingsDep,
) -> Response:
    """Keeps the learner's draft of a problem in one language (the editor saves as one types)."""
    if registry.get(problem) is None:
        raise HTTPException(404, f"unknown problem {problem!r}")
    if languages.get(language) is None:
        raise HTTPException(
            422, f"unknown language {language!r}; use one of {', '.join(languages.names())}"
        )
    if len(body.source.encode()) > settings.MAX_SOURCE_BYTES:
        raise HTTPException(
            413, f"a draft is at most {settings.MAX_SOURCE_BYTES} bytes, as a submission is"
        )
    assert user.id is not None
    row = session.get(Draft, (user.id, problem, language))
    if row is None:
        row = Draft(user_id=user.id, problem=problem, language=language, source=body.source)
    row.source, row.updated_at = body.source, utcnow()
    session.add(row)
    session.commit()
    return Response(status_code=204)


@router.delete("/{problem}/{language}", status_code=204)
def delete_draft(problem: str, language: str, session: SessionDep, user: CurrentUser) -> Response:
    """Forgets the learner's draft of a problem in one language."""
    row = session.get(Draft, (user.id, problem, language))
    if row is not None:
        session.delete(row)
        session.commit()
    return Response(status_code=204)
