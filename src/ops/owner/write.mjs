// The owner route (docs/openclaw/RELEASES.md §8): changes written by the installed OpenClaw
// package's own code, through its documented plugin SDK
// (`openclaw/plugin-sdk/session-store-runtime`). Run by the `node` on PATH with
// OPENCLAW_STATE_DIR set; the request (JSON) on stdin: `{package, calls: [...]}`, each call
// `{op: "replace", agentId, sessionKey, expectedSessionId, entry}` (the whole planned entry,
// written with `patchSessionEntry` replacing it) or `{op: "delete", agentId, sessionKey,
// expectedSessionId}` (`deleteSessionEntry`, its transcript archived). The answer (JSON) on
// stdout: one `{ok, error?}` per call, in order; a call after a failed one still runs.
import path from "node:path";
import { pathToFileURL } from "node:url";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const request = JSON.parse(Buffer.concat(chunks).toString("utf8"));
const sdk = await import(
  pathToFileURL(path.join(request.package, "dist/plugin-sdk/session-store-runtime.js")).href
);

const answers = [];
for (const call of request.calls) {
  try {
    if (call.op === "replace") {
      let other = null;
      const written = await sdk.patchSessionEntry({
        agentId: call.agentId,
        sessionKey: call.sessionKey,
        replaceEntry: true,
        preserveActivity: true,
        skipMaintenance: true,
        requireWriteSuccess: true,
        update: (current) => {
          if (!current || current.sessionId !== call.expectedSessionId) {
            other = current ? current.sessionId : null;
            throw new Error("session changed");
          }
          return call.entry;
        },
      });
      answers.push(written ? { ok: true } : { ok: false, error: "not found" });
    } else if (call.op === "delete") {
      const ok = await sdk.deleteSessionEntry({
        agentId: call.agentId,
        sessionKey: call.sessionKey,
        archiveTranscript: true,
        expectedSessionId: call.expectedSessionId,
      });
      answers.push(ok ? { ok: true } : { ok: false, error: "not found" });
    } else {
      answers.push({ ok: false, error: `unknown call ${call.op}` });
    }
  } catch (error) {
    answers.push({ ok: false, error: String(error?.message ?? error) });
  }
}
process.stdout.write(JSON.stringify(answers));
// The SDK keeps its SQLite handles open (no public close).
process.exit(0);
