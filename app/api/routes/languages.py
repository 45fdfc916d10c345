"""Languages: the judge's registry (judge/languages/), for editors and clients, with whether this
server's workers can grade each one right now (their self-tests: app/workers.py)."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel

from app import workers
from app.deps import SessionDep, SettingsDep
from judge import languages

router = APIRouter(prefix="/languages", tags=["languages"])


class Availability(BaseModel):
    """Whether a GPU kind's workers can grade a language now; when not, why (its self-test's
    error). A language no worker has tested yet counts as available."""

    available: bool
    reason: str = ""


class LanguagePublic(BaseModel):
    name: str
    label: str
    menu_label: str
    suffix: str
    editor_mode: str  # the CodeMirror language the editor highlights with
    track: Literal["kernel", "framework"]  # which leaderboard it ranks on
    runs_on_cpu: bool  # graded for correctness without a GPU (else compiled only)
    availability: dict[str, Availability] = {}  # per GPU kind this server offers


@router.get("", response_model=list[LanguagePublic])
def list_languages(session: SessionDep, settings: SettingsDep) -> list[LanguagePublic]:
    """Every submission language, in the editor's menu order (the first is the default), with
    its availability on each of the server's GPU kinds."""
    avail = workers.availability(session, settings.gpu_kinds)
    return [
        LanguagePublic(**lang.public(), availability=avail[lang.name]) for lang in languages.all()
    ]
