# Sourced by bench/du.sh and bench/compact.sh: the view_image tool results both add to a store.
# add_images DB MB: append view_image tool results (~300 KB of base64 each) round-robin over the
# transcripts until MB megabytes were added.
add_images() {
  python3 - "$1" "$2" <<'EOF'
import json, sqlite3, sys
db, mb = sys.argv[1], int(sys.argv[2])
c = sqlite3.connect(db)
c.create_function("octet_length", 1, lambda v: None if v is None else len(v.encode() if isinstance(v, str) else v), deterministic=True)
sessions = [r[0] for r in c.execute("SELECT session_id FROM session_windows ORDER BY session_id")]
alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
added, i = 0, 0
while added < mb * 1_000_000:
    sid = sessions[i % len(sessions)]
    n = 200_000 + (i * 7919) % 200_000
    data = (alphabet[i % 64:] + alphabet[: i % 64]) * (n // 64)
    ev = {"type": "message", "id": f"img{i}", "parentId": None, "timestamp": "2026-06-02T12:00:00.000Z",
          "message": {"role": "toolResult", "toolCallId": f"call_img{i}", "toolName": "view_image",
                      "content": [{"type": "text", "text": f"Read image file [image/png] shot-{i}.png"},
                                  {"type": "image", "data": data, "mimeType": "image/png"}],
                      "isError": False, "timestamp": 1780401600000 + i}}
    text = json.dumps(ev, separators=(",", ":"))
    seq = c.execute("SELECT coalesce(max(seq), -1) + 1 FROM transcript_events WHERE session_id = ?", (sid,)).fetchone()[0]
    c.execute("INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_utf8_bytes) VALUES (?, ?, ?, ?, ?)",
              (sid, seq, text, 1780401600000 + i, len(text.encode())))
    added += len(text)
    i += 1
    if i % 100 == 0:
        c.commit()
c.commit()
c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
c.close()
print(i)
EOF
}
