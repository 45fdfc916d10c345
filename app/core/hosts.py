"""The ``Host`` header builds nothing: trusted hosts, relative redirects, links for mails.

A client chooses its ``Host`` header. Anything built from it (``request.base_url``) is the
client's to choose: a reset link mailed to a victim pointing at ``evil.example`` with a valid
token, a ``Location`` sending the browser elsewhere. So:

- ``trusted_hosts``: Starlette's ``TrustedHostMiddleware`` answers 400 to a ``Host`` outside
  ``ALLOWED_HOSTS``; empty, the list is PUBLIC_URL's host and the loopback names, or every
  host (``*``) when PUBLIC_URL is unset too (nothing below trusts ``Host`` either way);
- ``RelativeRedirects``: a ``Location`` that names the request's own host (Starlette's
  trailing-slash redirect builds one from ``Host``) is cut to its path and query;
- ``mail_base``: the site's address for links in mails is PUBLIC_URL; without it, only a
  request that came in on loopback from loopback (``kerneldojo serve`` on a laptop) gets a link,
  built from the server's own socket, never from ``Host``; otherwise there is none, and the
  caller refuses to send.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from fastapi import Request
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.config import Settings

LOOPBACK_NAMES = ("localhost", "127.0.0.1")


def trusted_hosts(settings: Settings) -> list[str]:
    if settings.ALLOWED_HOSTS:
        return list(settings.ALLOWED_HOSTS)
    host = urlsplit(settings.PUBLIC_URL).hostname if settings.PUBLIC_URL else None
    return [host, *LOOPBACK_NAMES] if host else ["*"]


def is_loopback(host: str | None) -> bool:
    if not host:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def mail_base(settings: Settings, request: Request) -> str | None:
    """The address to put in front of a link in a mail; None: there is none to trust."""
    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL.rstrip("/")
    server = request.scope.get("server")
    client = request.client.host if request.client else None
    if not server or not is_loopback(server[0]) or not is_loopback(client):
        return None
    host, port = str(server[0]), server[1]
    if ":" in host:
        host = f"[{host}]"  # an IPv6 address in a URL
    return f"{request.url.scheme}://{host}" + (f":{port}" if port else "")


class RelativeRedirects:
    """Cut a ``Location`` on the request's own host down to its path: nothing the client
    wrote in ``Host`` comes back as a place to go."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        own = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), "")

        async def send_relative(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                where = headers.get("location")
                if where:
                    url = urlsplit(where)
                    if url.netloc and url.netloc.lower() == own.lower():
                        path = url.path or "/"
                        headers["location"] = path + (f"?{url.query}" if url.query else "")
            await send(message)

        await self.app(scope, receive, send_relative)
