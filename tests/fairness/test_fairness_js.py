"""``web/fairness.js`` (WebCrypto, in headless Chromium) against the reference implementation
``quaymoor/rules/fairness.py`` and the engine: the docs' test vectors, the first Warden and
the whole initial plot stack for 200 seeds at every player count with and without client
seeds, and every plot turned up (reshuffles and Farmstead draws included) of whole games."""

from __future__ import annotations

import hashlib
from typing import Any

from quaymoor.rules import engine
from quaymoor.rules.actions import TakePlot
from quaymoor.rules.data import SETUPS, Good
from quaymoor.rules.fairness import derive_key, draw_below, fingerprint
from tests.fairness.conftest import GAMES, game_record
from tests.server_process import Served

SEEDS = 200
CLIENT_SEEDS: list[list[str]] = [[], ["alice", "Bob \U0001f3b2", ""]]
VECTOR_SEED = bytes(range(32)).hex()

IMPORT = "const f = await import('/fairness.js');"


def seed(i: int) -> bytes:
    return hashlib.sha256(f"fairness-js:{i}".encode()).digest()


def goods(values: list[int]) -> list[str]:
    return [Good(g).name.lower() for g in values]


def open_page(page: Any, server: Served) -> None:
    page.goto(server.url + "/verify.html")
    page.wait_for_selector("#verify-page")


def test_the_docs_test_vectors_in_javascript(page: Any, archived_server: Served) -> None:
    open_page(page, archived_server)
    out = page.evaluate("""async (seed) => {""" + IMPORT + """
        const key = await f.deriveKey(seed, []);
        const ten = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
        const wardens = [];
        for (const n of [2, 3, 4, 5]) wardens.push(await f.firstWarden(key, n));
        return {
          fingerprint: await f.fingerprint(seed),
          key: f.bytesToHex(key),
          wardens,
          stream: f.bytesToHex(await new f.DrawStream(key, "plots").take(8)),
          plots: await f.shuffled(key, "plots", ten),
          reshuffle: await f.shuffled(key, f.reshuffleLabel(1), ten),
          message: f.bytesToHex(f.keyMessage(["alice", "bob"])),
          key2: f.bytesToHex(await f.deriveKey(seed, ["alice", "bob"])),
          upper: await f.fingerprint(seed.toUpperCase()),
        };
    }""", VECTOR_SEED)
    assert out == {
        "fingerprint": "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
        "key": "f19287ba3822f954fb486c75df6badb54ba3d68d1c30eac85b0cf1df9d3408bc",
        "wardens": [0, 1, 0, 3],
        "stream": "46b313fce41c6a41",
        "plots": [7, 3, 2, 8, 9, 5, 1, 6, 4, 0],
        "reshuffle": [5, 6, 0, 2, 3, 4, 9, 1, 8, 7],
        "message": "717561796d6f6f722d6b65792d31000005616c6963650003626f62",
        "key2": "44067af853cdac029443b876e27ca461170fac4c9dd09b6a2e4ef01c0d18c94b",
        "upper": "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
    }


def test_javascript_and_python_agree_on_first_warden_and_plot_stack(
    page: Any, archived_server: Served
) -> None:
    cases = []
    expected = []
    for i in range(SEEDS):
        raw = seed(i)
        for players in (2, 3, 4, 5):
            for client_seeds in CLIENT_SEEDS:
                key = derive_key(raw, client_seeds)
                state = engine.new_game(players, key)
                cases.append({"seed": raw.hex(), "players": players, "client_seeds": client_seeds})
                expected.append({
                    "fingerprint": fingerprint(raw),
                    "key": key.hex(),
                    "warden": draw_below(key, "first-warden", players),
                    # the engine turns up the first plots from the top of the stack
                    "stack": goods(state.face_up + state.stack),
                })
                assert expected[-1]["warden"] == state.warden
    open_page(page, archived_server)
    got = page.evaluate("""async (cases) => {""" + IMPORT + """
        const out = [];
        for (const c of cases) {
          const key = await f.deriveKey(c.seed, c.client_seeds);
          out.push({
            fingerprint: await f.fingerprint(c.seed),
            key: f.bytesToHex(key),
            warden: await f.firstWarden(key, c.players),
            stack: await f.initialStack(key, c.players),
          });
        }
        return out;
    }""", cases)
    assert len(got) == len(expected) == SEEDS * 4 * len(CLIENT_SEEDS)
    for case, mine, theirs in zip(cases, expected, got, strict=True):
        assert theirs == mine, case


def test_javascript_setups_match_the_rules_data(page: Any, archived_server: Served) -> None:
    open_page(page, archived_server)
    setups = page.evaluate("async () => {" + IMPORT + " return f.SETUPS; }")
    for n, setup in SETUPS.items():
        assert setups[str(n)] == {
            "plots": list(setup.plots),
            "starting": [g.name.lower() for g in setup.starting_plots],
        }


def test_every_plot_turned_up_in_whole_games_is_recomputed_in_javascript(
    page: Any, archived_server: Served
) -> None:
    records = [game_record(game_id) for game_id in GAMES]
    cases = []
    for rec in records:
        assert rec.turned_up is not None
        cases.append({
            "seed": rec.seed, "players": rec.players, "client_seeds": rec.client_seeds,
            "turned_up": [{"step": t.step, "source": t.source,
                           "goods": [g.name.lower() for g in t.goods]} for t in rec.turned_up],
            "taken": [{"step": i + 1, "good": step.action.good.name.lower()}
                      for i, step in enumerate(rec.actions)
                      if isinstance(step.action, TakePlot)],
        })
    open_page(page, archived_server)
    got = page.evaluate("""async (cases) => {""" + IMPORT + """
        const out = [];
        for (const c of cases) {
          const key = await f.deriveKey(c.seed, c.client_seeds);
          const right = await f.checkPlotDraws(key, c.players, c.turned_up, c.taken);
          const other = await f.deriveKey(c.seed, [...c.client_seeds, "mallory"]);
          const wrong = await f.checkPlotDraws(other, c.players, c.turned_up, c.taken);
          out.push({
            ok: right.map((r) => r.ok), reshuffled: right.filter((r) => r.reshuffled).length,
            sources: right.map((r) => r.source), wrongOk: wrong.map((r) => r.ok),
          });
        }
        return out;
    }""", cases)
    for rec, result in zip(records, got, strict=True):
        assert rec.turned_up is not None
        assert all(result["ok"]), result
        assert len(result["ok"]) == len(rec.turned_up)
        assert result["reshuffled"] >= 1 and "farmstead" in result["sources"]
        assert not all(result["wrongOk"])  # another key turns up other plots

