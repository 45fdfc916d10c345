"""Languages: the judge's registry (judge/languages/), for editors and clients."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel

from judge import languages

router = APIRouter(prefix="/languages", tags=["languages"])


class LanguagePublic(BaseModel):
    name: str
    label: str
    menu_label: str
    suffix: str
    editor_mode: str  # the CodeMirror language the editor highlights with
    track: Literal["kernel", "framework"]  # which leaderboard it ranks on
    runs_on_cpu: bool  # graded for correctness without a GPU (else compiled only)


@router.get("", response_model=list[LanguagePublic])
def list_languages() -> list[LanguagePublic]:
    """Every submission language, in the editor's menu order (the first is the default)."""
    return [LanguagePublic(**lang.public()) for lang in languages.all()]
