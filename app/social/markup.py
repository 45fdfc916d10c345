"""Learners' Markdown (write-ups, comments) to HTML that cannot run script.

Two layers, each enough alone: markdown-it renders with raw HTML off (a ``<script>`` typed in
a comment becomes text) and its link check (``javascript:``, ``vbscript:``, ``data:`` refused);
then nh3 (the Rust ``ammonia`` sanitiser) keeps only the tags, attributes, classes and URL
schemes listed here, so that a change of renderer or plugin cannot open a hole. No images: an
``<img>`` is a request to any server the author picks, on every reader's screen.

Math (``$x$``, ``$$...$$``) is marked up as on problem statements and typeset by KaTeX in the
browser (static/src/math.js); fenced code gets ``pre.code[data-lang][data-mode]``, which
static/src/code.js highlights with the editor's parsers. On a problem's thread (``spoilers``)
each code block is folded inside a ``<details class="spoiler">`` that the reader opens.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

import nh3
from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin

# A fence's info word -> (data-lang, the editor mode that highlights it: static/src/modes.js).
FENCE_LANGS = {
    "python": ("python", "python"),
    "py": ("python", "python"),
    "triton": ("triton", "python"),
    "numba": ("numba", "python"),
    "pytorch": ("pytorch", "python"),
    "cuda": ("cuda", "cpp"),
    "cu": ("cuda", "cpp"),
    "cpp": ("cpp", "cpp"),
    "c++": ("cpp", "cpp"),
    "c": ("cpp", "cpp"),
}
SPOILER_SUMMARY = "Spoiler: code (click to show)"

TAGS = {
    "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "del", "s", "code",
    "pre", "blockquote", "ul", "ol", "li", "a", "table", "thead", "tbody", "tr", "th", "td",
    "span", "div", "details", "summary", "eq", "eqn",
}  # fmt: skip
ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}}
ATTRIBUTE_VALUES = {
    "pre": {
        "data-lang": {lang for lang, _ in FENCE_LANGS.values()},
        "data-mode": {mode for _, mode in FENCE_LANGS.values()},
    }
}
CLASSES = {
    "span": {"math", "inline"},
    "div": {"math", "block", "inline"},  # "$$...$$" inside a paragraph: a div.math.inline
    "pre": {"code"},
    "details": {"spoiler"},
}
URL_SCHEMES = {"http", "https", "mailto"}


def _fence(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: dict[str, Any]) -> str:
    tok = tokens[idx]
    word = tok.info.strip().split(" ")[0].lower() if tok.info else ""
    lang_mode = FENCE_LANGS.get(word)
    attrs = (
        f' class="code" data-lang="{lang_mode[0]}" data-mode="{lang_mode[1]}"' if lang_mode else ""
    )
    block = f"<pre{attrs}><code>{escape(tok.content, quote=False)}</code></pre>\n"
    if env.get("spoilers"):
        return f'<details class="spoiler"><summary>{SPOILER_SUMMARY}</summary>{block}</details>\n'
    return block


_md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable(["table", "strikethrough"])
_md.use(dollarmath_plugin, allow_space=True, double_inline=True)
_md.add_render_rule("fence", _fence)
_md.add_render_rule("code_block", _fence)


def sanitize(html: str) -> str:
    """Only the listed tags, attributes, classes and URL schemes survive."""
    return str(
        nh3.clean(
            html,
            tags=TAGS,
            clean_content_tags={"script", "style"},
            attributes=ATTRIBUTES,
            tag_attribute_values=ATTRIBUTE_VALUES,
            allowed_classes=CLASSES,
            url_schemes=URL_SCHEMES,
            link_rel="nofollow noopener noreferrer ugc",
        )
    )


def render(text: str, *, spoilers: bool = False) -> str:
    """A learner's Markdown as safe HTML; ``spoilers`` folds the code blocks."""
    return sanitize(_md.render(text, {"spoilers": spoilers}))
