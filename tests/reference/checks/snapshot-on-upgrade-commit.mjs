// Preload for OpenClaw 2026.9.6 (Node 24): copies every SQLite database at the instant a transaction
// that ran `PRAGMA user_version = N` commits, i.e. right after OpenClaw's own schema upgrade of that
// database and before any later doctor repair touches it. Use on copies of a store only.
//
//   NODE_OPTIONS="--import <abs path>/snapshot-on-upgrade-commit.mjs" \
//   OPENCLAW_UPGRADE_SNAPSHOT_DIR=<abs dir> OPENCLAW_NO_RESPAWN=1 HOME=<scratch> \
//   OPENCLAW_STATE_DIR=<scratch>/.openclaw  oc doctor --fix
//
// Output: <dir>/<NN>-uv<N>-<last 3 path components joined by _>/{db.sqlite[,db.sqlite-wal],source.txt}.
// Open the copy read-write once (or run `PRAGMA wal_checkpoint(TRUNCATE)`) to fold the WAL in.
import sqlite from "node:sqlite";
import fs from "node:fs";
import path from "node:path";

const dir = process.env.OPENCLAW_UPGRADE_SNAPSHOT_DIR;
if (dir) {
  const proto = sqlite.DatabaseSync.prototype;
  const exec = proto.exec;
  const pending = new Map(); // database path -> user_version set in the open transaction
  let count = 0;
  const where = (db) => { try { return db.location() ?? null; } catch { return null; } };
  proto.exec = function (sql) {
    const result = exec.call(this, sql);
    const file = where(this);
    if (file && !file.endsWith(".lock.sqlite")) {
      const uv = /^\s*PRAGMA\s+user_version\s*=\s*(\d+)/i.exec(sql);
      if (uv) pending.set(file, uv[1]);
      if (/^\s*ROLLBACK\s*;?\s*$/i.test(sql)) pending.delete(file);
      if (/^\s*COMMIT\b/i.test(sql) && pending.has(file)) {
        const name = `${String(++count).padStart(2, "0")}-uv${pending.get(file)}-${file.split(path.sep).slice(-3).join("_")}`;
        const out = path.join(dir, `p${process.pid}`, name);
        fs.mkdirSync(out, { recursive: true });
        for (const suffix of ["", "-wal"]) if (fs.existsSync(file + suffix)) fs.copyFileSync(file + suffix, path.join(out, "db.sqlite" + suffix));
        fs.writeFileSync(path.join(out, "source.txt"), file + "\n");
        pending.delete(file);
      }
    }
    return result;
  };
}
