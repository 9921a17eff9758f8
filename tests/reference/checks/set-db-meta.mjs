// Change one database the way a hostile admin or a newer OpenClaw would (node:sqlite):
//   set-db-meta.mjs owner <db> <agentId>        schema_meta says the database is <agentId>'s
//   set-db-meta.mjs snapshot-version <dir> <n>  the snapshot's user_version becomes <n>, and its
//                                               manifest (userVersion, sha256, sizeBytes) follows
import { DatabaseSync } from "node:sqlite";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";

const [op, target, value] = process.argv.slice(2);
if (op === "owner") {
  const db = new DatabaseSync(target);
  db.prepare("UPDATE schema_meta SET agent_id = ? WHERE meta_key = 'primary'").run(value);
  db.close();
} else if (op === "snapshot-version") {
  const file = `${target}/database.sqlite`;
  const db = new DatabaseSync(file);
  db.exec(`PRAGMA user_version = ${Number(value)}`);
  db.close();
  const bytes = readFileSync(file);
  const manifest = JSON.parse(readFileSync(`${target}/manifest.json`, "utf8"));
  manifest.database.userVersion = Number(value);
  manifest.artifact.sha256 = createHash("sha256").update(bytes).digest("hex");
  manifest.artifact.sizeBytes = bytes.length;
  writeFileSync(`${target}/manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`);
} else {
  throw new Error(`unknown op ${op}`);
}
