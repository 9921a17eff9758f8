// PRAGMA integrity_check and foreign_key_check of every database named (SQLite 3.53, which
// evaluates OpenClaw's CHECK constraints). Prints the failures; exit 1 if any.
//   integrity.mjs DB...
import { DatabaseSync } from "node:sqlite";

let bad = 0;
for (const path of process.argv.slice(2)) {
  const db = new DatabaseSync(path);
  const ic = db.prepare("PRAGMA integrity_check").all().map((r) => Object.values(r)[0]);
  const fk = db.prepare("PRAGMA foreign_key_check").all();
  db.close();
  if (ic.join() !== "ok" || fk.length) {
    bad++;
    console.log(`${path}: ${ic.slice(0, 3).join("; ")}; ${fk.length} foreign key violation(s)`);
  }
}
process.exit(bad ? 1 : 0);
