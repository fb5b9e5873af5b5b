"""Summarises a schemathesis NDJSON report: per operation, the test cases sent, the HTTP statuses
answered, how many 2xx answers carried data (a non-empty list somewhere in the body or, for
the EVM records that hold no list, a block with transactions, `txCount` > 0, or a native balance
other than 0; for the metrics' rolling windows, a `result` holding a number other than 0), and the checks run (passed / failed). The totals are what docs/interop.md quotes.

    python3 st_summary.py REPORT.ndjson LABEL [--need-2xx SUFFIX ...] [--need-data SUFFIX ...]

Exits 1 if the report holds no test case (a run that tested nothing must not pass), if no
operation whose label (`GET /v1/...`) ends with a `--need-2xx` SUFFIX answered 2xx, or if none
ending with a `--need-data` SUFFIX answered 2xx with data: a pass that never reaches the data
proves little about its shape. `SUFFIX@TEXT` counts only requests whose URL holds TEXT (e.g.
`/balances@p-chain`), `SUFFIX@TEXT|OTHER` those whose URL holds either.
"""

import base64
import json
import sys
from collections import Counter, defaultdict


def has_list(value) -> bool:
    """Whether a JSON value holds a non-empty list anywhere."""
    if isinstance(value, list):
        return len(value) > 0
    if isinstance(value, dict):
        return any(has_list(v) for v in value.values())
    return False


def has_data(body) -> bool:
    """Whether an answer carries data: a non-empty list anywhere, or, for the EVM records that
    hold none, a block with transactions (`txCount` > 0) or a native balance other than 0, or
    (metrics-api's rolling windows) a `result` object holding a number other than 0."""
    if has_list(body):
        return True
    if not isinstance(body, dict):
        return False
    if isinstance(body.get("txCount"), int) and body["txCount"] > 0:
        return True
    native = body.get("nativeTokenBalance")
    if isinstance(native, dict) and native.get("balance") not in (None, "", "0"):
        return True
    result = body.get("result")
    return isinstance(result, dict) and any(
        isinstance(v, (int, float)) and not isinstance(v, bool) and v != 0 for v in result.values())


def body_json(response: dict):
    content = response.get("content") or {}
    raw = content.get("$base64")
    if raw is None:
        return None
    try:
        return json.loads(base64.b64decode(raw))
    except ValueError:
        return None


def parse_flags(args: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    positional, flags, current = [], {"--need-2xx": [], "--need-data": []}, None
    for a in args:
        if a in flags:
            current = a
        elif current:
            flags[current].append(a)
        else:
            positional.append(a)
    return positional, flags


def main() -> int:
    positional, flags = parse_flags(sys.argv[1:])
    path, label = positional[0], positional[1] if len(positional) > 1 else positional[0]
    cases = defaultdict(set)
    statuses = defaultdict(Counter)
    with_data = Counter()
    data_urls = defaultdict(list)  # operation -> URLs of the 2xx answers with data
    checks = defaultdict(Counter)
    for line in open(path, encoding="utf-8"):
        finished = json.loads(line).get("ScenarioFinished")
        if not finished:
            continue
        recorder = finished["recorder"]
        op = recorder["label"]
        for case_id, inter in recorder.get("interactions", {}).items():
            cases[op].add(case_id)
            response = inter.get("response") or {}
            code = response.get("status_code")
            statuses[op][code if code is not None else "no response"] += 1
            if isinstance(code, int) and 200 <= code < 300 and has_data(body_json(response)):
                with_data[op] += 1
                data_urls[op].append((inter.get("request") or {}).get("uri", ""))
        for case_checks in recorder.get("checks", {}).values():
            for c in case_checks:
                checks[op][c["status"]] += 1
    print(f"== schemathesis {label}: per operation")
    total_cases = total_checks = total_failed = 0
    for op in sorted(cases):
        st = ", ".join(f"{k}: {v}" for k, v in sorted(statuses[op].items(), key=str))
        ok, bad = checks[op]["success"], checks[op]["failure"]
        total_cases += len(cases[op])
        total_checks += ok + bad
        total_failed += bad
        print(f"  {op}\n      {len(cases[op])} cases; statuses {st} "
              f"({with_data[op]} 2xx with data); checks {ok} passed, {bad} failed")
    print(f"  total: {total_cases} cases, {total_checks} checks run, {total_failed} failed")
    status = 0
    if total_cases == 0:
        print("  no test case was run", file=sys.stderr)
        status = 1

    def two_xx(op: str) -> int:
        return sum(n for c, n in statuses[op].items() if isinstance(c, int) and 200 <= c < 300)

    def data_at(op: str, text: str | None) -> int:
        if text is None:
            return with_data[op]
        return sum(any(t in u for t in text.split("|")) for u in data_urls[op])

    for flag, count, what in (("--need-2xx", lambda op, _: two_xx(op), "2xx answer"),
                              ("--need-data", data_at, "2xx answer with data")):
        for want in flags[flag]:
            suffix, _, text = want.partition("@")
            if sum(count(op, text or None) for op in cases if op.endswith(suffix)) == 0:
                print(f"  no {what} for {want}: the pass did not reach its data", file=sys.stderr)
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
