// Regenerates tests/fixtures/markers-openclaw-2026.9.6.json: run with the working directory /
// (`cd / && ocnode tests/reference/checks/marker-cases.mjs > ...`).
// Run OpenClaw's own marker codec on each case (cwd: /), print the answers as JSON.
import { readdirSync } from "node:fs";
import { join } from "node:path";
const dist = join(process.env.OPENCLAW_REF_PKG, "dist");
const file = readdirSync(dist).find((f) => f.startsWith("legacy-sqlite-marker-"));
const m = await import(join(dist, file));
const format = m.t, parse = m.n;
const formatPaths = [
  "/h//a/../b/db.sqlite", "/h/./a/", "/", "//", "///x", "/../x", "/a/b/..", "/a:b/c",
  "/a/b/.../c", "/a/ b/c", "/a/b\\c", "/ü/🙂/db", "/a/./../../b", "/a/b//", "/a/..",
  "/home/user/.openclaw/agents/main/agent/openclaw-agent.sqlite", "/a/b/./c/./", "/.hidden/..x/y",
  "/a/b\nc", "/x/%20/y", "/x/../../../..", "/a//b//c//"
];
const parseInputs = [
  "sqlite:a:b:/p", "  sqlite:a:b:/p\n", "\uFEFFsqlite:a:b:/p", "sqlite:a:b:/p\nq", "sqlite:a:b:/p\rq",
  "sqlite:a\nx:b:/p", "sqlite:a:b:", "sqlite::b:/p", "sqlite:a::/p", "sqlite:a:b:rel/../p", "sqlite:a:b:/x//y/../z",
  "sqlite:a:b:/p\u2028q", "sqlite:a:b:/p\u2029", "\u00a0sqlite:a:b:/p\u3000", "SQLITE:a:b:/p", "sqlite:a:b:c:d",
  "sqlite:a:b:/p ", "x sqlite:a:b:/p", "sqlite:a:b: ", "sqlite:a:b", "sqlite:", "", "   ", "sqlite:a:b:\t/p",
  "\u200bsqlite:a:b:/p", "sqlite:a:b:/p\u0085q", "sqlite:a:b:/p\u000bq", "sqlite:main:abc-1:/h/a:b/db.sqlite",
  "\n\tsqlite:a:b:/p/\u2028", "sqlite:ä:ö:/ü", "sqlite:a b:c d:/e f"
];
const out = {
  format: formatPaths.map((storePath) => ({ agentId: "main", sessionId: "abc-1", storePath, marker: format({ agentId: "main", sessionId: "abc-1", storePath }) })),
  parse: parseInputs.map((input) => ({ input, result: parse(input) ?? null })),
};
console.log(JSON.stringify(out, null, 1));
