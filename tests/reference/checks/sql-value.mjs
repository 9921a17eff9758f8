// Print the first column of the first row of a query on a database (read-only), as text.
//   sql-value.mjs DATABASE SQL
import { DatabaseSync } from "node:sqlite";

const [dbPath, sql] = process.argv.slice(2);
const db = new DatabaseSync(dbPath, { readOnly: true });
const row = db.prepare(sql).get();
console.log(row ? String(Object.values(row)[0]) : "");
