ALTER TABLE worker_environments ADD COLUMN preparation_purpose TEXT;
ALTER TABLE cron_jobs ADD COLUMN grant_definition_revision TEXT;
ALTER TABLE cron_jobs ADD COLUMN grant_definition_generation INTEGER;
ALTER TABLE cron_jobs ADD COLUMN grant_definition_updated_at INTEGER;
-- [js] prepared statement executed 1 time(s), 0 row(s) changed:
--   WITH policies AS (
--         
--     SELECT * FROM (
--       SELECT rowid receipt_rowid, queue_name, id, enqueued_at,
--         json_extract(entry_json, '$.completionRetention.idPrefix') id_prefix,
--         json_extract(entry_json, '$.completionRetention.maxAgeMs') max_age_ms,
--         json_extract(entry_json, '$.completionRetention.maxEntries') max_entries
--       FROM delivery_queue_entries WHERE status IN ('completed', 'failed')
--         AND recovery_state = 'completed_bounded' AND json_valid(entry_json)
--          AND json_type(entry_json, '$.completionRetention') = 'object'
--     )
--     WHERE typeof(id_prefix) = 'text' AND id_prefix <> ''
--       AND substr(id, 1, length(id_prefix)) = id_prefix
--       AND typeof(max_age_ms) = 'integer' AND max_age_ms BETWEEN 1 AND 9007199254740991
--       AND typeof(max_entries) = 'integer' AND max_entries BETWEEN 1 AND 9007199254740991
--         
--       ), ranked AS (
--         SELECT *, row_number() OVER (PARTITION BY queue_name, id_prefix
--           ORDER BY enqueued_at DESC, id DESC) retention_rank FROM policies
--       ) DELETE FROM delivery_queue_entries WHERE rowid IN (
--         SELECT receipt_rowid FROM ranked
--         WHERE enqueued_at < @now - max_age_ms OR retention_rank > max_entries
--       )
--   bound values: [{"now": 1796290163524}]
-- [js] prepared statement executed 1 time(s), 0 row(s) changed:
--   delete from "delivery_queue_entries" where "status" = ? and "enqueued_at" < ? and ("recovery_state" is null or "recovery_state" not in (?, ?))
--   bound values: ["completed", 1793698163524, "completed_permanent", "completed_bounded"]
UPDATE task_runs
    SET delivery_status = 'not_applicable'
    WHERE delivery_status = 'not-requested';
UPDATE subagent_runs
    SET payload_json = json_set(payload_json, '$.delivery.suspendedReason', 'permanent_failure')
    WHERE json_valid(payload_json)
      AND json_extract(payload_json, '$.delivery.suspendedReason') = 'retry-limit';
UPDATE subagent_runs
    SET payload_json = json_remove(
      CASE
        WHEN json_extract(payload_json, '$.pauseReason') = 'sessions_yield'
          AND json_extract(payload_json, '$.execution.status') <> 'terminal'
          AND json_type(payload_json, '$.endedAt') IN ('integer', 'real')
        THEN json_remove(json_set(
          payload_json,
          '$.execution.status', 'terminal',
          '$.execution.endedAt', json_extract(payload_json, '$.endedAt')
        ), '$.execution.outcome')
        WHEN (json_type(payload_json, '$.killReconciliation') = 'object'
          OR json_extract(payload_json, '$.endedReason') = 'subagent-killed')
          AND json_extract(payload_json, '$.execution.status') <> 'terminal'
          AND json_type(payload_json, '$.endedAt') IN ('integer', 'real')
          AND json_type(payload_json, '$.outcome') = 'object'
        THEN json_set(
          payload_json,
          '$.execution.status', 'terminal',
          '$.execution.endedAt', json_extract(payload_json, '$.endedAt'),
          '$.execution.outcome', json_extract(payload_json, '$.outcome')
        )
        ELSE payload_json
      END,
      '$.startedAt', '$.endedAt', '$.outcome'
    )
    WHERE json_valid(payload_json)
      AND (json_type(payload_json, '$.startedAt') IS NOT NULL
        OR json_type(payload_json, '$.endedAt') IS NOT NULL
        OR json_type(payload_json, '$.outcome') IS NOT NULL);
-- [js] prepared statement executed 1 time(s), 0 row(s) changed:
--   WITH runs AS MATERIALIZED (
--         SELECT run_id, trim(child_session_key, ?) AS child_session_key, requester_session_key, created_at,
--           CASE WHEN json_valid(payload_json) THEN payload_json ELSE 'null' END AS payload
--         FROM subagent_runs
--       ), bindings AS MATERIALIZED (
--         SELECT run.run_id, task.run_id AS task_run_id
--         FROM runs AS run JOIN task_runs AS task
--           ON task.child_session_key = run.child_session_key
--         WHERE task.runtime = 'subagent'
--           AND task.requester_session_key = run.requester_session_key
--           AND task.run_id <> '' AND trim(task.run_id) = task.run_id
--           AND json_type(run.payload, '$.taskRunId') IS NULL
--           AND json_type(run.payload, '$.completion.required') = 'true'
--           AND json_type(run.payload, '$.sessionStartedAt') IN ('integer', 'real')
--           AND json_extract(run.payload, '$.sessionStartedAt') < run.created_at
--           AND task.created_at BETWEEN json_extract(run.payload, '$.sessionStartedAt')
--             AND run.created_at
--           AND (SELECT count(*) FROM runs AS sibling
--             WHERE sibling.child_session_key = run.child_session_key) = 1
--           AND (SELECT count(*) FROM task_runs AS sibling
--             WHERE sibling.runtime = 'subagent'
--               AND sibling.child_session_key = run.child_session_key) = 1
--           AND (SELECT count(*) FROM task_runs AS sibling
--             WHERE sibling.run_id = task.run_id) = 1
--           AND NOT EXISTS (SELECT 1 FROM runs AS sibling
--             WHERE json_type(sibling.payload) <> 'object' OR coalesce(
--               CASE WHEN json_type(sibling.payload, '$.taskRunId') = 'text'
--                 THEN nullif(trim(json_extract(sibling.payload, '$.taskRunId'), ?), '') END,
--               sibling.run_id
--             ) = task.run_id)
--       )
--       UPDATE subagent_runs SET payload_json = json_set(payload_json, '$.taskRunId',
--         (SELECT task_run_id FROM bindings WHERE bindings.run_id = subagent_runs.run_id))
--       WHERE run_id IN (SELECT run_id FROM bindings);
--   bound values: ["\t\n\u000b\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff", "\t\n\u000b\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029...
ALTER TABLE worker_environments ADD COLUMN last_activated_at_ms INTEGER;
ALTER TABLE worker_environments ADD COLUMN preparation_key TEXT;
ALTER TABLE worker_environments ADD COLUMN preparation_demand_at_ms INTEGER;
ALTER TABLE worker_environments ADD COLUMN preparation_expires_at_ms INTEGER;
ALTER TABLE worker_environments ADD COLUMN preparation_consumed_at_ms INTEGER CHECK (
    (preparation_key IS NULL AND preparation_demand_at_ms IS NULL
      AND preparation_expires_at_ms IS NULL AND preparation_consumed_at_ms IS NULL)
    OR
    (preparation_key IS NOT NULL AND length(preparation_key) = 64
      AND preparation_key NOT GLOB '*[^0-9a-f]*'
      AND preparation_demand_at_ms IS NOT NULL
      AND preparation_demand_at_ms BETWEEN 0 AND 9007199254740991
      AND preparation_expires_at_ms IS NOT NULL
      AND preparation_expires_at_ms > preparation_demand_at_ms
      AND preparation_expires_at_ms <= 9007199254740991
      AND (preparation_consumed_at_ms IS NULL
        OR (preparation_consumed_at_ms >= preparation_demand_at_ms
          AND preparation_consumed_at_ms < preparation_expires_at_ms)))
  );
CREATE INDEX IF NOT EXISTS idx_task_runs_requester_session_key ON task_runs(requester_session_key);
CREATE TABLE IF NOT EXISTS worktree_templates (
  cache_key TEXT NOT NULL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  repo_root TEXT NOT NULL,
  common_dir TEXT NOT NULL,
  worktree_root TEXT NOT NULL,
  path TEXT NOT NULL,
  backend TEXT NOT NULL,
  source_commit TEXT NOT NULL,
  content_key TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('preparing', 'ready')),
  created_at INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS idx_worker_session_placements_environment
  ON worker_session_placements(environment_id)
  WHERE environment_id IS NOT NULL;
CREATE INDEX main.openclaw_probe_idx_plugin_state_listing ON plugin_state_entries(plugin_id, namespace, created_at, entry_key, expires_at);
DROP INDEX IF EXISTS main.idx_plugin_state_listing;
CREATE INDEX main.idx_plugin_state_listing ON plugin_state_entries(plugin_id, namespace, created_at, entry_key, expires_at);
DROP INDEX main.openclaw_probe_idx_plugin_state_listing;
PRAGMA user_version = 18;
-- [js] prepared statement executed 1 time(s), 1 row(s) changed:
--   INSERT INTO schema_meta (
--              meta_key, role, schema_version, agent_id, app_version, created_at, updated_at
--            ) VALUES ('primary', 'global', ?, NULL, NULL, ?, ?)
--            ON CONFLICT(meta_key) DO UPDATE SET
--              schema_version = excluded.schema_version,
--              updated_at = excluded.updated_at
--   bound values: [18, 1796290163602, 1796290163602]
