INSERT OR IGNORE INTO session_key_contract (id, main_key, updated_at) VALUES (1, 'main', 0);
CREATE INDEX main.openclaw_probe_idx_agent_session_nodes_entry_not_valid ON session_nodes(session_key) WHERE entry_valid != 1;
CREATE INDEX main.idx_agent_session_nodes_entry_not_valid ON session_nodes(session_key) WHERE entry_valid != 1;
DROP INDEX main.openclaw_probe_idx_agent_session_nodes_entry_not_valid;
CREATE TABLE transcript_events_payload_migration (
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  event_json TEXT,
  created_at INTEGER NOT NULL,
  event_zstd BLOB,
  event_utf8_bytes INTEGER CHECK (event_utf8_bytes IS NULL OR event_utf8_bytes >= 0),
  navigation_json TEXT,
  PRIMARY KEY (session_id, seq),
  FOREIGN KEY (session_id) REFERENCES "session_windows"(session_id) ON DELETE CASCADE,
  CHECK (
    (event_json IS NOT NULL AND event_zstd IS NULL)
    OR (
      event_json IS NULL AND event_zstd IS NOT NULL
      AND event_utf8_bytes IS NOT NULL
      AND event_utf8_bytes BETWEEN 1 AND 4194304
      AND length(event_zstd) BETWEEN 1 AND 4194304
      AND navigation_json IS NOT NULL
    )
  ),
  CHECK (
    navigation_json IS NULL OR CASE WHEN json_valid(navigation_json) THEN coalesce(
      octet_length(navigation_json) <= 16384
      AND json_type(navigation_json, '$.version') = 'integer'
      AND json_extract(navigation_json, '$.version') = 1
      AND json_type(navigation_json, '$.report') = 'object'
      AND json_extract(navigation_json, '$.report.kind') IN ('canonical', 'leaf', 'link', 'ignored')
      AND json_type(navigation_json, '$.navigation') = 'object'
      AND json_type(navigation_json, '$.reset') = 'object'
      AND json_type(navigation_json, '$.model') = 'object'
      AND json_type(navigation_json, '$.modelBytes') = 'integer'
      AND json_extract(navigation_json, '$.modelBytes') BETWEEN 0 AND 4194304
      AND json_type(navigation_json, '$.modelWithoutCheckpointBytes') = 'integer'
      AND json_extract(navigation_json, '$.modelWithoutCheckpointBytes') BETWEEN 0 AND 4194304
      AND json_type(navigation_json, '$.withoutCustomDataBytes') = 'integer'
      AND json_extract(navigation_json, '$.withoutCustomDataBytes') BETWEEN 0 AND 4194304,
      0) ELSE 0 END
  )
) STRICT;
-- [js] prepared statement executed 173 time(s), 173 row(s) changed:
--   INSERT INTO transcript_events_payload_migration
--         (rowid, session_id, seq, event_json, created_at, event_zstd, event_utf8_bytes, navigation_json)
--       SELECT rowid, session_id, seq, event_json, created_at, NULL,
--              CASE WHEN ? THEN octet_length(event_json) ELSE NULL END, ?
--       FROM transcript_events WHERE rowid = ?
-- [js] prepared statement executed 7 time(s), 7 row(s) changed:
--   INSERT INTO transcript_events_payload_migration
--         (rowid, session_id, seq, event_json, created_at, event_zstd, event_utf8_bytes, navigation_json)
--       SELECT rowid, session_id, seq, NULL, created_at, ?, ?, ?
--       FROM transcript_events WHERE rowid = ?
DROP TABLE transcript_events;
ALTER TABLE transcript_events_payload_migration RENAME TO transcript_events;
UPDATE memory_index_sources SET hash = ''
          WHERE (path, source) IN (
            SELECT path, source FROM memory_index_chunks
            WHERE openclaw_memory_embedding_json_valid(embedding) = 0
          );
INSERT INTO memory_index_meta (key, value)
          SELECT 'memory_vector_rebuild_v1', '1'
          WHERE EXISTS (
            SELECT 1 FROM memory_index_chunks
            WHERE openclaw_memory_embedding_json_valid(embedding) = 0
          )
          ON CONFLICT(key) DO UPDATE SET value = excluded.value;
CREATE TABLE memory_index_chunks_storage_migration (
    chunk_rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    path TEXT NOT NULL,
    source TEXT NOT NULL DEFAULT 'memory',
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    hash TEXT NOT NULL,
    model TEXT NOT NULL,
    text TEXT NOT NULL,
    embedding BLOB NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;
INSERT INTO memory_index_chunks_storage_migration (
            chunk_rowid, id, path, source, start_line, end_line, hash, model, text, embedding, updated_at
          )
          SELECT rowid, id, path, source, start_line, end_line, hash, model, text,
                 openclaw_memory_embedding_from_json(embedding), updated_at
          FROM memory_index_chunks;
DROP TABLE memory_index_chunks;
ALTER TABLE memory_index_chunks_storage_migration RENAME TO memory_index_chunks;
CREATE INDEX idx_memory_index_chunks_path
  ON memory_index_chunks(path);
CREATE INDEX idx_memory_index_chunks_path_source
  ON memory_index_chunks(path, source);
CREATE INDEX idx_memory_index_chunks_source
  ON memory_index_chunks(source);
CREATE TRIGGER memory_index_chunks_revision_after_delete
AFTER DELETE ON memory_index_chunks
BEGIN
  UPDATE memory_index_state SET revision = revision + 1 WHERE id = 1;
END;
CREATE TRIGGER memory_index_chunks_revision_after_insert
AFTER INSERT ON memory_index_chunks
BEGIN
  UPDATE memory_index_state SET revision = revision + 1 WHERE id = 1;
END;
CREATE TRIGGER memory_index_chunks_revision_after_update
AFTER UPDATE ON memory_index_chunks
BEGIN
  UPDATE memory_index_state SET revision = revision + 1 WHERE id = 1;
END;
CREATE TABLE memory_embedding_cache_storage_migration (
      provider TEXT NOT NULL,
      model TEXT NOT NULL,
      provider_key TEXT NOT NULL,
      hash TEXT NOT NULL,
      embedding BLOB NOT NULL,
      dims INTEGER,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (provider, model, provider_key, hash)
    ) STRICT;
INSERT INTO memory_embedding_cache_storage_migration (rowid, provider, model, provider_key, hash, embedding, dims, updated_at)
          SELECT rowid, provider, model, provider_key, hash,
                 openclaw_memory_embedding_from_json(embedding), dims, updated_at
          FROM memory_embedding_cache;
DROP TABLE memory_embedding_cache;
ALTER TABLE memory_embedding_cache_storage_migration RENAME TO memory_embedding_cache;
CREATE INDEX idx_memory_embedding_cache_updated_at
  ON memory_embedding_cache(updated_at);
INSERT OR IGNORE INTO session_key_contract (id, main_key, updated_at) VALUES (1, 'main', 0);
CREATE TABLE IF NOT EXISTS session_transcript_fts_rows (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  message_id TEXT
) STRICT;
CREATE INDEX IF NOT EXISTS idx_session_transcript_fts_rows_session_message
  ON session_transcript_fts_rows(session_id, message_id);
CREATE TRIGGER IF NOT EXISTS session_transcript_fts_rows_after_delete
AFTER DELETE ON session_transcript_fts_rows
BEGIN
  DELETE FROM session_transcript_fts WHERE rowid = OLD.id;
END;
INSERT OR IGNORE INTO memory_index_state (id, revision) VALUES (1, 0);
INSERT INTO session_transcript_fts_rows (id, session_id, message_id)
    SELECT rowid, session_id, message_id FROM session_transcript_fts;
PRAGMA user_version = 23;
-- [js] prepared statement executed 1 time(s), 1 row(s) changed:
--   insert into "schema_meta" ("meta_key", "role", "schema_version", "agent_id", "app_version", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?, ?) on conflict ("meta_key") do update set "role" = ?, "schema_version" = ?, "agent_id" = ?, "app_version" = ?, "updated_at" = ? where ("schema_meta"."schema_version" != ? or "schema_meta"."app_version" is null or "schema_meta"."app_version" != ? or "schema_meta"."agent_id" != ?)
--   bound values: ["primary", "agent", 23, "main", "2026.9.6", 1796289138138, 1796289138138, "agent", 23, "main", "2026.9.6", 1796289138138, 23, "2026.9.6", "main"]
