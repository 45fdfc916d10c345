"""compute-sanitizer's report, read into ``Finding``s mapped to the submission's source.

memcheck and racecheck print blocks of lines behind a ``=========`` prefix: a headline
("Invalid __global__ write of size 4 bytes", "Error: Race reported between Write access at
..."), then indented details: where (``at kernel+0x70 in /sandbox/solution.cu:12``; Triton
kernels carry their Python file's lines the same way), which thread and block, the address and
the nearest allocation. The runner tells which allocation holds which argument
(``instrument.py``), so "4 bytes after the nearest allocation at 0x... of size 16384 bytes"
becomes "4 bytes past the end of c". Consequences of a finding ("Program hit
cudaErrorLaunchFailure ...") and the tool's banners are left out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from judge.profile.report import Finding

MAX_FINDINGS = 5
_PREFIX = re.compile(r"^=+ ?")
_WHERE = re.compile(r"in (?P<file>[^\s:()]+):(?P<line>\d+)")
_KERNEL = re.compile(
    r"\bat (?:0x[0-9a-f]+ in [^\s]+:\d+:)?(?P<kernel>[^+\s][^+]*?)(?:\+0x|\s+in\s)"
)
_THREAD = re.compile(r"thread \((?P<t>[\d, ]+)\)(?: in block \((?P<b>[\d, ]+)\))?")
_BLOCK = re.compile(r"block \((?P<b>[\d, ]+)\)")
_SIZE = re.compile(r"of size (\d+) bytes?")
_NEAR = re.compile(
    r"(?P<n>[\d,]+) bytes? (?P<side>before|after) the nearest allocation at (?P<at>0x[0-9a-f]+) "
    r"of size (?P<size>[\d,]+) bytes?"
)
_ADDRESS = re.compile(r"(?:Address|Access to) (?P<a>0x[0-9a-f]+)")
# "ERROR SUMMARY: 25 errors", "RACECHECK SUMMARY: 7 hazards displayed (2 errors, 5 warnings)";
# not the line after it: "ERROR SUMMARY: 20 errors were not printed".
_SUMMARY = re.compile(
    r"(?:ERROR|RACECHECK) SUMMARY: ([\d,]+) (?:errors|error|hazards|hazard)\b(?! were)"
)
_HAZARDS = re.compile(r"\[(\d+) hazards?\]")
_SKIP = ("COMPUTE-SANITIZER", "Program hit", "Target application", "LEAK SUMMARY")
_SANDBOX = "/sandbox/"


def _blocks(text: str) -> tuple[list[list[str]], int | None]:
    blocks: list[list[str]] = []
    summary: int | None = None
    current: list[str] | None = None
    for raw in text.splitlines():
        if not raw.startswith("="):
            continue
        line = _PREFIX.sub("", raw).rstrip()
        if "SUMMARY:" in line:
            if m := _SUMMARY.search(line):
                summary = (summary or 0) + int(m.group(1).replace(",", ""))
            current = None
            continue
        if not line.strip():
            current = None
            continue
        if line[0] != " ":  # a headline
            current = None if line.startswith(_SKIP) else [line]
            if current is not None:
                blocks.append(current)
        elif current is not None:
            current.append(line.strip())
    return blocks, summary


def _short_file(path: str) -> str:
    return path[len(_SANDBOX) :] if path.startswith(_SANDBOX) else path.rsplit("/", 1)[-1]


def _where(lines: list[str], sources: tuple[str, ...]) -> list[tuple[str, int]]:
    """Every file:line of the block, the submission's own files first."""
    found: list[tuple[str, int]] = []
    for ln in lines:
        if ln.startswith(("Host Frame", "Saved host")):  # the launch's host side, not the fault
            continue
        for m in _WHERE.finditer(ln):
            found.append((_short_file(m.group("file")), int(m.group("line"))))
    found.sort(key=lambda fl: fl[0] not in sources)
    return found


def _argument(at: int, allocations: Mapping[str, tuple[int, int]]) -> str | None:
    for name, (ptr, _) in allocations.items():
        if ptr == at:
            return name
    return None


def _element(
    body: str,
    base: int,
    allocations: Mapping[str, tuple[int, int]],
    itemsizes: Mapping[str, int],
) -> str | None:
    """ ", at c[1000], past the end of c (1000 elements)" for an access near an argument."""
    arg = _argument(base, allocations)
    addr = _ADDRESS.search(body)
    if arg is None or addr is None:
        return None
    item = max(1, itemsizes.get(arg, 1))
    offset = int(addr.group("a"), 16) - base
    count = allocations[arg][1] // item
    index = offset // item if offset >= 0 else -(-offset // item) * -1
    side = "past the end" if offset >= 0 else "before the start"
    return f", at {arg}[{index}], {side} of {arg} ({count} elements)"


def _headline(head: str) -> str:
    """ "Invalid __global__ write of size 4 bytes" -> "invalid global write of size 4"."""
    text = head.replace("__global__", "global").replace("__shared__", "shared")
    text = re.sub(r"(of size \d+) bytes?", r"\1", text)
    return text[0].lower() + text[1:] if text else text


def _finding(
    lines: list[str],
    allocations: Mapping[str, tuple[int, int]],
    itemsizes: Mapping[str, int],
    sources: tuple[str, ...],
) -> Finding:
    head = lines[0]
    body = " ".join(lines)
    where = _where(lines, sources)
    kernel = next((m.group("kernel").strip() for ln in lines if (m := _KERNEL.search(ln))), None)
    thread = block = None
    if m := _THREAD.search(body):
        thread, block = f"({m.group('t')})", f"({m.group('b')})" if m.group("b") else None
    if block is None and (m := _BLOCK.search(body)):
        block = f"({m.group('b')})"
    details = [ln for ln in lines[1:] if not ln.startswith(("Saved host", "Host Frame"))][:8]
    if head.startswith(("Error: Race", "Race reported", "Error: Potential", "Warning: Race")):
        kind = "race"
        sides = re.findall(r"(Read|Write) access", body)
        places = [f"{f}:{n}" for f, n in where[:2]]
        pairs = [f"a {s.lower()} at {p}" for s, p in zip(sides, places, strict=False)]
        msg = "shared-memory race between " + " and ".join(pairs) if pairs else head
        if m := _HAZARDS.search(body):
            msg += f" ({m.group(1)} hazards)"
        if block:
            msg += f", block {block}"
    else:
        kind = _headline(head).split(" of size")[0]
        msg = _headline(head)
        if where:
            msg += f" at {where[0][0]}:{where[0][1]}"
        if thread:
            msg += f", thread {thread}" + (f" block {block}" if block else "")
        if m := _NEAR.search(body):
            near = _element(body, int(m.group("at"), 16), allocations, itemsizes)
            n, side, size = m.group("n"), m.group("side"), m.group("size")
            msg += near or f", {n} bytes {side} an allocation of {size} bytes"
        elif _ADDRESS.search(body) and "out of bounds" in body:
            msg += ", outside every allocation"
    return Finding(
        kind=kind,
        message=msg,
        file=where[0][0] if where else None,
        line=where[0][1] if where else None,
        kernel=kernel,
        thread=thread,
        block=block,
        details=details,
    )


def parse(
    text: str,
    allocations: Mapping[str, tuple[int, int]] | None = None,
    itemsizes: Mapping[str, int] | None = None,
    sources: tuple[str, ...] = ("solution.cu", "solution.py"),
) -> tuple[list[Finding], int]:
    """(the first findings, the error count the tool reported or the number of findings).

    ``allocations``: argument name -> (device pointer, bytes) of the runner's private copies;
    ``itemsizes``: argument name -> bytes per element, to name the element an access hit."""
    blocks, summary = _blocks(text)
    findings = [_finding(b, allocations or {}, itemsizes or {}, sources) for b in blocks]
    # The same fault from many threads: one line per place and kind is enough.
    unique: list[Finding] = []
    seen: set[tuple[str, str | None, int | None]] = set()
    for f in findings:
        key = (f.kind, f.file, f.line)
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique[:MAX_FINDINGS], max(summary or 0, len(findings))
