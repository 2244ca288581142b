"""schemathesis (every one of its checks) against a real ``quaymoor serve`` finds nothing:
the OpenAPI document (``http.openapi``) is exactly as strict as the server, both ways
(schema-valid requests are taken or refused only for the state of the server: 404, 409,
429; schema-invalid ones are refused), every status, body, Content-Type and header the
server sends is the document's, and every method a path does not take is 405 with
``Allow``.

The server keeps its per-address limits (``ClientLimits``, as deployed): a run is one
client making a few hundred requests, some hundred of them creating tables, which is what
those limits are for. Its first creations are answered 201 (their bodies checked), the
rest 429 ``too_many_*`` with ``Retry-After`` (the header checked), which the document
lists and schemathesis counts as the server's state, not a rejection of valid data.
Without the limits the run would only open more tables. The archive holds one finished
game, whose id schemathesis is given for ``{game}`` so that the games' routes answer 200
and their bodies are checked too.

A small example count keeps this under a minute on two cores; ``quaymoor fuzz`` and the
command in ``SCHEMATHESIS`` below run it longer (``--max-examples 100``: about 3,000 cases).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.http.test_replay_http import GAME, archive_with_game
from tests.server_process import serving

EXAMPLES = 30
#: What no JSON Schema can state: an account name's rules (one script, Unicode's
#: confusables: docs/protocol.md "Accounts"), and whether a passkey's answer is signed by
#: the key it claims. A schema-valid name may be refused 400 bad_name, a schema-valid
#: answer (to a ceremony schemathesis opened itself) 400 passkey_refused: only these
#: operations' positive-data check also takes 400; every other check, the negative-data
#: check included, runs on them as on the rest.
NAME_RULES_EXEMPTION = "".join(f"""[[operations]]
include-path = "{path}"
checks.positive_data_acceptance.expected-statuses = [
    "2xx", "400", "401", "403", "404", "409", "429"]

""" for path in ("/api/accounts/register/options", "/api/accounts/register",
                 "/api/accounts/signin"))
SCHEMATHESIS = ["run", "--checks", "all", "--max-examples", str(EXAMPLES), "--seed", "1",
                "--workers", "1", "--request-timeout", "5", "--no-color",
                "--suppress-health-check", "all", "--generation-database", "none"]


def test_schemathesis_with_all_its_checks_finds_no_failure(tmp_path: Path) -> None:
    exe = shutil.which("schemathesis") or str(Path(sys.executable).parent / "schemathesis")
    archive = tmp_path / "archive.sqlite3"
    archive_with_game(archive)
    work = tmp_path / "work"  # its config, and anything it writes
    work.mkdir()
    (work / "schemathesis.toml").write_text(f'[parameters]\n"path.game" = "{GAME}"\n\n'
                                            + NAME_RULES_EXEMPTION)
    with serving(archive) as url:
        done = subprocess.run([exe, *SCHEMATHESIS, f"{url}/api/openapi.json"], cwd=work,
                              capture_output=True, text=True, timeout=300, check=False)
    out = done.stdout + done.stderr
    cases = re.search(r"(\d+) generated, (\d+) passed", out)
    assert done.returncode == 0 and cases is not None, out[-6000:]
    generated, passed = map(int, cases.groups())
    assert generated == passed and generated >= 300, out[-3000:]
    assert "Missing test data" not in out or "/api/games/{game}" not in out, out[-3000:]
