// Reads format-4 and -5 records (JSON lines, made by the Python engine: test_verifier_records.py)
// and prints, per record, what the verify page's checks (web/verifier.js) say: the failed
// checks of the record as written, and of the record with its last turn-up left out.
import { readFileSync } from "node:fs";
import { verifyRecord } from "../../web/verifier.js";

const failed = (checks) => checks.filter((c) => c.status === "fail").map((c) => c.id);
const out = [];
for (const line of readFileSync(process.argv[2], "utf8").trim().split("\n")) {
  const r = JSON.parse(line);
  const cut = { ...r, turned_up: r.turned_up.slice(0, -1) };
  out.push({ game: r.game, failed: failed(await verifyRecord(r)), cut: failed(await verifyRecord(cut)) });
}
console.log(JSON.stringify(out));
