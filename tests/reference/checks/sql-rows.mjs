// Print every row of a query on a database (read-only), one JSON array a line.
//   sql-rows.mjs DATABASE SQL
import { DatabaseSync } from "node:sqlite";

const [dbPath, sql] = process.argv.slice(2);
const db = new DatabaseSync(dbPath, { readOnly: true });
for (const row of db.prepare(sql).all()) console.log(JSON.stringify(Object.values(row)));
