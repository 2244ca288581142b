"""``web/fairness.js`` (WebCrypto, in headless Chromium) against the reference implementation
``quaymoor/rules/fairness.py`` and the engine: the docs' test vectors, the first Warden and
the whole initial plot stack for 200 seeds at every player count with and without client
seeds, and every plot turned up (reshuffles and Farmstead draws included) of whole games
and of games cut short, worked out from the seed and the actions alone; a list of turn-ups
with one left out, added or changed is named."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from quaymoor.rules import engine
from quaymoor.rules.data import SETUPS, Good
from quaymoor.rules.fairness import (
    Deal,
    DealtSeat,
    deal_key,
    derive_key,
    draw_below,
    fingerprint,
    seed_commitment,
    table_fingerprint,
)
from quaymoor.rules.game import Game
from quaymoor.rules.record import GameRecord, TurnedUp
from tests.fairness.conftest import GAMES, game_record
from tests.server_process import Served

SEEDS = 200
CLIENT_SEEDS: list[list[str]] = [[], ["alice", "Bob \U0001f3b2", ""]]
VECTOR_SEED = bytes(range(32)).hex()

IMPORT = "const f = { ...await import('/fairness.js'), ...await import('/fairness_plots.js') };"


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


NAMES = ["Ada", "Bede (bot)", "Cy \U0001f3b2", "Dörte", "", "Ælfrida the Long"]


def fair2_case(i: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A table of 2-5 seats, each a bot, a person with no commitment, one who committed and
    revealed, or one who committed and withheld; with the reference's answers."""
    raw = seed(1000 + i)
    players = 2 + i % 4
    table = f"{i * 7919:010x}"
    seats = []
    for k in range(players):
        kind = (i + k) % 4
        name = NAMES[(i + k) % len(NAMES)]
        cs = f"{name} dice {i}-{k}" if kind in (2, 3) else None
        commitment = seed_commitment(table, k, cs) if cs is not None else None
        seats.append(DealtSeat(name, kind == 0, commitment, cs if kind == 2 else None))
    deal = Deal(table, tuple(seats))
    key = deal_key(raw, deal)
    state = engine.new_game(players, key)
    case = {"seed": raw.hex(), "players": players, "deal": {"table": table, "seats": [
        {"name": s.name, "bot": s.bot, "commitment": s.commitment, "client_seed": s.client_seed}
        for s in seats]}}
    expected = {
        "fingerprint": table_fingerprint(raw, table, players),
        "commitments": [s.commitment for s in seats],
        "key": key.hex(),
        "warden": draw_below(key, "first-warden", players),
        "stack": goods(state.face_up + state.stack),
    }
    return case, expected


def test_javascript_and_python_agree_on_quaymoor_fair_2(
    page: Any, archived_server: Served
) -> None:
    """The fingerprint, every commitment, the key from the deal, the first Warden and the
    whole plot stack, for 120 tables of every size and mix of seats."""
    pairs = [fair2_case(i) for i in range(120)]
    open_page(page, archived_server)
    got = page.evaluate("""async (cases) => {""" + IMPORT + """
        const out = [];
        for (const c of cases) {
          const key = await f.dealKey(c.seed, c.deal);
          const commitments = [];
          for (const [k, s] of c.deal.seats.entries()) {
            commitments.push(s.commitment === null ? null
              : s.client_seed === null ? s.commitment  // withheld: nothing to recompute
              : await f.seedCommitment(c.deal.table, k, s.client_seed));
          }
          out.push({
            fingerprint: await f.tableFingerprint(c.seed, c.deal.table, c.players),
            commitments,
            key: f.bytesToHex(key),
            warden: await f.firstWarden(key, c.players),
            stack: await f.initialStack(key, c.players),
          });
        }
        return out;
    }""", [c for c, _ in pairs])
    for (case, mine), theirs in zip(pairs, got, strict=True):
        assert theirs == mine, case


def test_javascript_setups_match_the_rules_data(page: Any, archived_server: Served) -> None:
    open_page(page, archived_server)
    setups = page.evaluate("async () => {" + IMPORT + " return f.SETUPS; }")
    for n, setup in SETUPS.items():
        assert setups[str(n)] == {
            "plots": list(setup.plots),
            "starting": [g.name.lower() for g in setup.starting_plots],
            "faceUp": setup.face_up_plots,
        }


def shown(turned_up: list[TurnedUp]) -> list[dict[str, Any]]:
    return [{"step": t.step, "source": t.source, "goods": [g.name.lower() for g in t.goods]}
            for t in turned_up]


def prefix_turn_ups(record: GameRecord, n: int) -> list[TurnedUp]:
    """What the rules turn up in the first ``n`` actions of ``record``'s game."""
    game = Game(record.players, bytes.fromhex(record.seed), record.client_seeds, events=True)
    for step in record.actions[:n]:
        game.apply(step.seat, step.action)
    assert game.turned_up is not None
    return game.turned_up


WORK_OUT = """async (cases) => {""" + IMPORT + """
    const out = [];
    for (const c of cases) {
      const key = await f.deriveKey(c.seed, c.client_seeds);
      const mine = await f.expectedTurnUps(key, c.players, c.actions,
        { finished: c.finished });
      const rows = (list) => f.compareTurnUps(mine, list).map((r) => r.status);
      const other = await f.deriveKey(c.seed, [...c.client_seeds, "mallory"]);
      const wrong = await f.expectedTurnUps(other, c.players, c.actions,
        { finished: c.finished });
      out.push({
        mine: mine.map(({ step, source, goods }) => ({ step, source, goods })),
        open: mine.filter((t) => t.open).length,
        reshuffled: mine.filter((t) => t.reshuffled).length,
        rows: rows(c.turned_up),
        wrong: f.compareTurnUps(wrong, c.turned_up).map((r) => r.status),
        tampered: Object.fromEntries(Object.entries(c.tampered).map(([k, v]) => [k, rows(v)])),
      });
    }
    return out;
}"""


def test_every_plot_turned_up_in_whole_games_is_worked_out_in_javascript(
    page: Any, archived_server: Served
) -> None:
    """The browser works out every turn-up from the seed and the record's actions alone,
    exactly as the rules turn them up, and names each one a list leaves out, adds or
    changes."""
    records = [game_record(game_id) for game_id in GAMES]
    cases = []
    for rec in records:
        listed = shown(rec.turned_up or [])
        k = next(i for i in range(len(listed) // 2, len(listed))
                 if listed[i]["source"] == "surveyor")
        altered = [dict(t) for t in listed]
        altered[k]["goods"] = ["amber"] * len(altered[k]["goods"])
        extra = {"step": listed[k]["step"] + 1, "source": "farmstead", "goods": ["clay"]}
        cases.append({
            "seed": rec.seed, "players": rec.players, "client_seeds": rec.client_seeds,
            "actions": json.loads(rec.to_json())["actions"],
            "finished": True,
            "turned_up": listed,
            "tampered": {"truncated": listed[:-3], "dropped": listed[:k] + listed[k + 1:],
                         "added": [*listed[:k + 1], extra, *listed[k + 1:]],
                         "altered": altered},
            "k": k,
        })
    open_page(page, archived_server)
    got = page.evaluate(WORK_OUT, cases)
    for case, result in zip(cases, got, strict=True):
        assert result["mine"] == case["turned_up"]  # JS = Python, turn-up for turn-up
        assert result["open"] == 0 and set(result["rows"]) == {"ok"}
        assert result["reshuffled"] >= 1
        assert any(t["source"] == "farmstead" for t in case["turned_up"])
        assert "changed" in result["wrong"]  # another key turns up other plots
        k, n = case["k"], len(case["turned_up"])
        tampered = result["tampered"]
        assert tampered["truncated"] == ["ok"] * (n - 3) + ["missing"] * 3
        assert tampered["dropped"] == ["ok"] * k + ["missing"] + ["ok"] * (n - k - 1)
        assert tampered["added"] == ["ok"] * (k + 1) + ["extra"] + ["ok"] * (n - k - 1)
        assert tampered["altered"] == ["ok"] * k + ["changed"] + ["ok"] * (n - k - 1)


def test_a_game_ended_early_is_worked_out_up_to_its_last_action(
    page: Any, archived_server: Served
) -> None:
    """Cut anywhere (in a Surveyor phase, right at its end, after a Farmstead draw): what
    the browser works out is what the rules turned up, with at most the last Surveyor
    turn-up left open (the game may have ended before or after it)."""
    rec = game_record("a0a0a0a0a3")
    actions = json.loads(rec.to_json())["actions"]
    cuts = set()
    for i, step in enumerate(rec.actions):
        kind = type(step.action).__name__
        if kind in ("TakePlot", "DrawPlot", "TakeStonePit") or (
                i + 1 < len(actions) and actions[i + 1]["action"]["type"] == "pick_role"):
            cuts.add(i + 1)
        if len(cuts) >= 40:
            break
    cases = []
    for n in sorted(cuts):
        cases.append({
            "seed": rec.seed, "players": rec.players, "client_seeds": rec.client_seeds,
            "actions": actions[:n], "finished": False,
            "turned_up": shown(prefix_turn_ups(rec, n)), "tampered": {},
        })
    open_page(page, archived_server)
    got = page.evaluate(WORK_OUT, cases)
    assert len(got) == len(cases) >= 20
    for case, result in zip(cases, got, strict=True):
        assert set(result["rows"]) <= {"ok", "open"}, (len(case["actions"]), result["rows"])
        assert result["rows"].count("open") <= 1 and result["open"] <= 1
