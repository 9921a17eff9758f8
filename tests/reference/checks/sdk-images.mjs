// OpenClaw's SDK appends view_image-style tool results with inline base64 images to one session,
// then reads the transcript back (checks-maintenance.sh, du_content_sdk_images):
//   sdk-images.mjs <agentId> <sessionKey> <sessionId> <base64 length>...
// One tool result per length: a text block and an image block whose `data` is that many base64
// characters. Prints one JSON line: the events read back, the image blocks and their `data`
// bytes (UTF-8), and every inline `data` payload (image, audio, file) summed from the SDK's own
// read of the transcript, before and after the appends; exit 1 when an appended image is not read
// back. OpenClaw masks secret-looking runs of what it appends (a run of base64 can look like one:
// it keeps the first characters and writes "…"), so the bytes read back can be fewer than those
// appended: `redacted` counts those images.
const tx = await import("openclaw/plugin-sdk/session-transcript-runtime");
const [agentId, sessionKey, sessionId, ...lengths] = process.argv.slice(2);
const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
// Seeded pseudo-random base64 (it compresses as little as a real image's would).
const payload = (n, salt) => {
  const chars = new Array(n);
  let x = (salt + 1) * 2654435761 >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    chars[i] = alphabet[x >>> 26];
  }
  return chars.join("");
};
const sums = (events) => {
  let imageBlocks = 0, imageBytes = 0, inlineMediaBytes = 0;
  const lengths = [];
  for (const ev of events) {
    const content = ev?.message?.content;
    if (!Array.isArray(content)) continue;
    for (const b of content) {
      if (!b || typeof b !== "object" || typeof b.data !== "string") continue;
      const n = Buffer.byteLength(b.data, "utf8");
      inlineMediaBytes += n;
      if (b.type === "image") { imageBlocks++; imageBytes += n; lengths.push(b.data.length); }
    }
  }
  return { events: events.length, imageBlocks, imageBytes, inlineMediaBytes, lengths };
};
const before = sums(await tx.readSessionTranscriptEvents({ agentId, sessionKey, sessionId }));
const appended = [];
for (const [i, len] of lengths.entries()) {
  const data = payload(Number(len), i);
  const toolCallId = `call_view_image_${i}`;
  await tx.appendSessionTranscriptMessageByIdentity({
    agentId, sessionKey, sessionId,
    message: {
      role: "toolResult", toolCallId, toolName: "view_image",
      content: [
        { type: "text", text: `Read image file [image/png] shot-${i}.png` },
        { type: "image", data, mimeType: "image/png" },
      ],
      isError: false, timestamp: Date.now(),
    },
    cwd: `/home/user/ws-${agentId}`,
  });
  appended.push(data.length);
}
const after = sums(await tx.readSessionTranscriptEvents({ agentId, sessionKey, sessionId }));
const added = after.lengths.slice(before.lengths.length);
const redacted = appended.filter((n, i) => added[i] !== n).length;
const readBack = added.length === appended.length && added.every((n, i) => n > appended[i] * 0.99 && n <= appended[i]);
delete before.lengths;
console.log(JSON.stringify({ appended, before, ...after, lengths: undefined, added, redacted, readBack }));
process.exit(readBack ? 0 : 1);
