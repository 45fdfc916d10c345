"""Outgoing mail through the SMTP server the settings name (the standard library's smtplib).

Only password resets send mail, and only where ``SMTP_HOST`` and ``SMTP_FROM`` are set. The
web app calls ``send`` from a worker thread: a slow mail server holds a thread, not the loop.
"""

from __future__ import annotations

import logging
import smtplib
import ssl
from email.message import EmailMessage

from app.core.config import Settings

log = logging.getLogger(__name__)
TIMEOUT_S = 20.0


class MailError(Exception):
    """The mail could not be handed to the SMTP server."""


def send(settings: Settings, to: str, subject: str, body: str) -> None:
    if not settings.smtp_configured:
        raise MailError("this server sends no mail (SMTP_HOST and SMTP_FROM are not set)")
    msg = EmailMessage()
    msg["From"] = settings.SMTP_FROM
    msg["To"] = to
    msg["Subject"] = subject
    msg.set_content(body)
    host, port = settings.SMTP_HOST, settings.SMTP_PORT
    try:
        if settings.SMTP_SECURITY == "ssl":
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(
                host, port, timeout=TIMEOUT_S, context=ssl.create_default_context()
            )
        else:
            smtp = smtplib.SMTP(host, port, timeout=TIMEOUT_S)
        with smtp:
            if settings.SMTP_SECURITY == "starttls":
                smtp.starttls(context=ssl.create_default_context())
            if settings.SMTP_USERNAME:
                smtp.login(settings.SMTP_USERNAME, settings.SMTP_PASSWORD)
            smtp.send_message(msg)
    except (OSError, smtplib.SMTPException) as e:
        log.warning("mail to %s via %s:%d failed: %s", to, host, port, e)
        raise MailError(f"the mail server {host}:{port} did not take the message: {e}") from e
    log.info("mail sent to %s: %s", to, subject)
