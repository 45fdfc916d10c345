"""Security headers on every response: a Content-Security-Policy with no inline script,
no framing (clickjacking), no referrer beyond this site, no MIME sniffing.

Pages load their scripts from ``/static`` only (the editor, KaTeX, Swagger UI on the API docs
page and ``js/forms.js``); inline ``style`` attributes stay allowed.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; "
    "base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
FIXED = {
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
}


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("Content-Security-Policy", CSP)
                for k, v in FIXED.items():
                    headers.setdefault(k, v)
            await send(message)

        await self.app(scope, receive, send_with_headers)
