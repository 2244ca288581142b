"""The run's figures as text: inputs by category, by kind of value and by field; the
failure columns; each failure with its (reduced) reproducer; schemathesis's result."""

from __future__ import annotations

from collections import Counter
from typing import Final

from quaymoor.tools.fuzz.checks import COLUMNS, Tally

#: The columns that must be 0.
ALL_COLUMNS: Final = (*COLUMNS, "schemathesis failures")


def _top(counter: Counter[str], n: int) -> str:
    rows = counter.most_common(n)
    width = max((len(k) for k, _ in rows), default=0)
    lines = [f"    {k:<{width}}  {v:>7,}" for k, v in rows]
    if len(counter) > n:
        lines.append(f"    ... and {len(counter) - n} more")
    return "\n".join(lines)


def render(tally: Tally, seconds: float, *, columns: dict[str, int], schemathesis: str,
           leaks: list[str], timings: dict[str, float], busy: dict[str, float]) -> str:
    out = [f"quaymoor fuzz: {tally.total:,} inputs in {seconds:.1f} s "
           f"({tally.total / max(seconds, 1e-9):,.0f}/s)", "", "inputs by category:",
           _top(tally.tried, 20), "", "inputs by kind of value:", _top(tally.kinds, 40), "",
           f"inputs by field ({len(tally.fields)} fields):", _top(tally.fields, 25), "",
           "answers:", _top(tally.outcomes, 25), "", "columns (each must be 0):"]
    for column in ALL_COLUMNS:
        out.append(f"    {column:<36} {columns.get(column, 0):>6}")
    out.append(f"    {'run time':<36} {seconds:>6.1f} s  (" + ", ".join(
        f"{stage} {t:.1f} s" for stage, t in timings.items()) + ")")
    out.append("    workers' seconds by category: " + ", ".join(
        f"{k} {v:.1f}" for k, v in sorted(busy.items(), key=lambda kv: -kv[1])))
    if schemathesis:
        out += ["", "schemathesis:", *(f"    {line}" for line in schemathesis.splitlines())]
    if tally.failures or leaks:
        out += ["", "failures (first few of each column; 'alone:' is an input that does it "
                "by itself on a fresh table):"]
    seen: set[tuple[str, ...]] = set()
    for failure in tally.failures:
        r = failure.reduced
        key = (failure.column, r.channel, r.kind) if r else (
            failure.column, failure.what)
        if key in seen:
            continue
        seen.add(key)
        out.append(f"  - [{failure.column}] {failure.what}  ({failure.where})")
        if failure.reduced is not None:
            r = failure.reduced
            out.append(f"      alone: {r.channel} {r.field} ({r.kind}): {r.shown()}")
        else:
            for item in failure.inputs[:3]:
                out.append(f"      sent: {item.channel} {item.field} ({item.kind}): "
                           f"{item.shown(160)}")
            if len(failure.inputs) > 3:
                out.append(f"      ... {len(failure.inputs) - 3} more inputs in that batch")
    for leak in leaks[:20]:
        out.append(f"  - [leaked secrets] {leak}")
    return "\n".join(out)
