"""A request body limit enforced before anything reads the body (ASGI middleware).

A request whose ``Content-Length`` is over the limit is answered 413 without reading a byte
of it; a body sent without a length (chunked) is counted as it arrives and cut off with a 413
as soon as it passes the limit, so the app never holds more than the limit in memory. A 50 MB
anonymous JSON POST used to be parsed whole before its sender was even authenticated.
"""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` inside the app, so its exception handlers answer the 413."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(413, f"the request body is over the limit of {max_bytes} bytes")


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None:
            try:
                too_big = int(length) > self.max_bytes
            except ValueError:
                await self._refuse(send, 400, "the Content-Length header is not a number")
                return
            if too_big:
                await self._refuse(send, 413, str(BodyTooLarge(self.max_bytes).detail))
                return

        seen = 0
        started = False

        async def counted_receive() -> Message:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.max_bytes:
                    raise BodyTooLarge(self.max_bytes)
            return msg

        async def watched_send(msg: Message) -> None:
            nonlocal started
            started = started or msg["type"] == "http.response.start"
            await send(msg)

        try:
            await self.app(scope, counted_receive, watched_send)
        except BodyTooLarge as e:  # read outside the app's exception handlers
            if not started:
                await self._refuse(send, 413, str(e.detail))

    async def _refuse(self, send: Send, status: int, detail: str) -> None:
        body = json.dumps({"detail": detail}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
