"""JSON embedded in pages escapes every ``<``, ``>`` and ``&`` (issue 36): a draft holding
``<!--<script>`` (the HTML parser's "script data double escaped" state, which ``</`` escaping
does not leave) must not break the editor page for its author."""

from __future__ import annotations

import json
import re

from fastapi.testclient import TestClient

from tests.app.conftest import signup

PAYLOAD = "# <!--<script> & </script> -->\ndef solve(a, b, c, n):\n    pass\n"


def test_a_draft_with_comment_and_script_tags_keeps_the_page_whole(client: TestClient) -> None:
    csrf = signup(client, "alice")
    r = client.put(
        "/api/v1/drafts/toy-add/triton", json={"source": PAYLOAD}, headers={"X-CSRF-Token": csrf}
    )
    assert r.status_code == 204, r.text
    page = client.get("/problems/toy-add").text
    m = re.search(r'<script type="application/json" id="problem-data">(.*?)</script>', page, re.S)
    assert m
    embedded = m.group(1)
    assert not set("<>&") & set(embedded)  # \\u003c, \\u003e, \\u0026 instead
    data = json.loads(embedded)
    assert data["drafts"]["triton"]["source"] == PAYLOAD
    # The rest of the page is still there after the data block.
    assert page.index('id="problem-data"') < page.index("</body>")
