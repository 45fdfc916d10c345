"""Learners' Markdown renders inert whatever they type (app/social/markup.py): the hostile
inputs of stored XSS, each checked in the HTML that reaches the page."""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest

from app.social.markup import SPOILER_SUMMARY, render, sanitize

HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '<a href="javascript:alert(1)">click</a>',
    "[click](javascript:alert(1))",
    "[click](JaVaScRiPt:alert(1))",
    "[click](java&#x09;script:alert(1))",
    "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "![img](data:image/svg+xml,<svg onload=alert(1)>)",
    '<svg><g onload="alert(1)"></g></svg>',
    '<div style="background:url(javascript:alert(1))" onmouseover="alert(1)">x</div>',
    "<iframe src=https://example.com></iframe>",
    "```\n</code></pre><script>alert(1)</script>\n```",
    "`<script>alert(1)</script>`",
    '```python" onmouseover="alert(1)\nx = 1\n```',
    "[a](vbscript:msgbox(1))",
    "<details open ontoggle=alert(1)>",
    "$<script>alert(1)</script>$",
]


class _Elements(HTMLParser):
    """The elements and attributes a browser would build from the HTML (text is text)."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attrs: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attrs += [(k, v or "") for k, v in attrs]


def _elements(html: str) -> _Elements:
    p = _Elements()
    p.feed(html)
    return p


@pytest.mark.parametrize("text", HOSTILE)
@pytest.mark.parametrize("spoilers", [False, True])
def test_hostile_markdown_renders_inert(text: str, spoilers: bool) -> None:
    html = render(text, spoilers=spoilers)
    found = _elements(html)
    assert not found.tags & {"script", "img", "iframe", "svg", "style", "object", "embed"}, html
    names = {k for k, _ in found.attrs}
    assert not {k for k in names if k.startswith("on")}, html
    assert "style" not in names and "src" not in names, html
    for k, v in found.attrs:
        if k == "href":  # a scheme as a browser parses it (WHATWG: letters, digits, + - .)
            assert urlsplit(v).scheme.lower() in {"", "http", "https", "mailto"}, html


def test_the_sanitiser_alone_strips_what_a_renderer_might_let_through() -> None:
    # The second layer, on raw HTML as if the renderer had passed it unchanged.
    html = sanitize(
        '<a href="javascript:alert(1)" onclick="x()">a</a><script>evil()</script>'
        '<pre class="code evil" data-lang="cuda&quot;" data-mode="cpp">k</pre>'
        '<span class="math inline secret">x</span><img src="data:image/png;base64,AA">'
    )
    assert "javascript" not in html and "onclick" not in html and "evil()" not in html
    assert "<img" not in html and 'data-lang="' not in html  # only the listed values survive
    assert 'class="code"' in html and 'class="math inline"' in html
    assert 'rel="nofollow noopener noreferrer ugc"' in sanitize('<a href="https://x.org">x</a>')


def test_markdown_keeps_what_learners_need() -> None:
    html = render(
        "## Idea\n\nOne pass: $m_i = \\max_j x_{ij}$ and\n\n$$\\sum_j e^{x_{ij} - m_i}$$\n\n"
        "```triton\nif x < y and y > 0:\n    pass\n```\n\n| n | ms |\n|---|---|\n| 1 | 2 |\n\n"
        "[docs](https://triton-lang.org) and ~~old~~"
    )
    assert "<h2>Idea</h2>" in html
    assert '<span class="math inline">m_i = \\max_j x_{ij}</span>' in html
    assert '<div class="math block">' in html
    # "$$...$$" inside a paragraph keeps the classes static/src/math.js looks for.
    assert '<div class="math inline">t \\ge 1</div>' in render("the floor is\n$$t \\ge 1$$")
    assert '<pre class="code" data-lang="triton" data-mode="python"><code>if x &lt; y' in html
    assert "<table>" in html and "<s>old</s>" in html
    assert '<a href="https://triton-lang.org" rel="nofollow noopener noreferrer ugc">' in html


def test_spoilers_fold_every_code_block_and_nothing_else() -> None:
    text = "Try `tl.max` first.\n\n```cuda\n__global__ void k() {}\n```\n\n    indented\n"
    folded = render(text, spoilers=True)
    assert folded.count('<details class="spoiler">') == 2
    assert folded.count(SPOILER_SUMMARY) == 2
    assert "<code>tl.max</code>" in folded.split("<details")[0]  # inline code stays
    assert "<details" not in render(text)
