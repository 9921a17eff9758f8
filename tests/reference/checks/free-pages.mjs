// Leave free pages in an agent database, as deleted sessions do: a filler table of BYTES bytes,
// dropped again. With --no-auto-vacuum the database is first rebuilt with auto_vacuum NONE (as
// databases made before OpenClaw turned incremental vacuum on). Prints {freePages, pageSize}.
//   free-pages.mjs DB BYTES [--no-auto-vacuum]
import { DatabaseSync } from "node:sqlite";

const [path, bytes, flag] = process.argv.slice(2);
const db = new DatabaseSync(path);
if (flag === "--no-auto-vacuum") db.exec("PRAGMA auto_vacuum = NONE; VACUUM;");
db.exec("CREATE TABLE reference_filler(b BLOB)");
const insert = db.prepare("INSERT INTO reference_filler VALUES (randomblob(8192))");
for (let i = 0; i < Number(bytes) / 8192; i++) insert.run();
db.exec("DROP TABLE reference_filler; PRAGMA wal_checkpoint(TRUNCATE);");
const one = (p) => Object.values(db.prepare(`PRAGMA ${p}`).get())[0];
console.log(JSON.stringify({ freePages: one("freelist_count"), pageSize: one("page_size"), autoVacuum: one("auto_vacuum") }));
db.close();
