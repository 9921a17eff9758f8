with "source" as materialized (select "input"."event_json", "input"."report_json", CASE WHEN json_valid("input"."event_json")
                  THEN jsonb("input"."event_json") ELSE "input"."event_json" END as "event_projection" from (select ?1 as "event_json", ?2 as "report_json") as "input"), "metadata" as materialized (select CASE WHEN json_valid("source"."event_json") AND json_valid("source"."report_json") THEN CASE
    WHEN json_type("source"."event_projection") != 'object'
      OR coalesce(json_type("source"."event_projection", '$.message'), 'null') NOT IN ('object', 'null') THEN NULL
    ELSE json_object('version', 1,
      'report', json("source"."report_json"),
      'navigation', json((SELECT json_group_object(root_member.key,
    CASE WHEN root_member.key = 'message' AND root_member.type = 'object'
      THEN json((SELECT json_group_object(message_member.key,
    CASE WHEN message_member.key = '__openclaw' AND message_member.type = 'object'
      THEN json((SELECT json_group_object(key, CASE type
    WHEN 'object' THEN json(value) WHEN 'array' THEN json(value)
    WHEN 'true' THEN json('true') WHEN 'false' THEN json('false')
    ELSE value END) FROM json_each("message_member"."value") WHERE key IN ('runId', 'steerTargetRunId', 'contextFreeCommand'))) ELSE CASE "message_member"."type"
    WHEN 'object' THEN json("message_member"."value")
    WHEN 'array' THEN json("message_member"."value")
    WHEN 'true' THEN json('true') WHEN 'false' THEN json('false')
    ELSE "message_member"."value" END END)
    FROM json_each(root_member.value) AS message_member
    WHERE message_member.key IN ('role', 'idempotencyKey', 'provenance', 'excludeFromContext', '__openclaw'))) ELSE CASE "root_member"."type"
    WHEN 'object' THEN json("root_member"."value")
    WHEN 'array' THEN json("root_member"."value")
    WHEN 'true' THEN json('true') WHEN 'false' THEN json('false')
    ELSE "root_member"."value" END END)
    FROM json_each("source"."event_projection") AS root_member
    WHERE root_member.key IN ('type', 'id', 'parentId', 'targetId', 'appendParentId', 'appendMode', 'timestamp', 'version', 'cwd', 'firstKeptEntryId', 'reason', 'tokensBefore', 'thinkingLevel', 'provider', 'modelId', 'fromId', 'customType', 'display', 'label', 'name', 'message'))),
      'reset', json(CASE WHEN json_valid("source"."event_json") THEN
    CASE WHEN json_type("source"."event_json") = 'object' THEN
      json_set((SELECT json_group_object(key, CASE type
    WHEN 'object' THEN json(value) WHEN 'array' THEN json(value)
    WHEN 'true' THEN json('true') WHEN 'false' THEN json('false')
    ELSE value END) FROM json_each("source"."event_json") WHERE key IN ('type', 'id', 'parentId', 'targetId', 'appendParentId', 'appendMode', 'timestamp', 'firstKeptEntryId', 'customType', 'display')), '$.message', json_object('role', json_extract("source"."event_json", '$.message.role')))
    ELSE "source"."event_json" END
    ELSE "source"."event_json" END),
      'model', json(CASE json_extract("source"."event_projection", '$.type')
    WHEN 'message' THEN json_set((SELECT json_group_object(key, CASE type
    WHEN 'object' THEN json(value) WHEN 'array' THEN json(value)
    WHEN 'true' THEN json('true') WHEN 'false' THEN json('false')
    ELSE value END) FROM json_each("source"."event_projection") WHERE key IN ('type', 'id', 'parentId', 'targetId', 'appendParentId', 'appendMode', 'timestamp', 'version', 'cwd', 'firstKeptEntryId', 'reason', 'tokensBefore', 'thinkingLevel', 'provider', 'modelId', 'fromId', 'customType', 'display', 'label', 'name')), '$.message', json_set((SELECT json_group_object(key, CASE type
    WHEN 'object' THEN json(value) WHEN 'array' THEN json(value)
    WHEN 'true' THEN json('true') WHEN 'false' THEN json('false')
    ELSE value END) FROM json_each(jsonb_extract("source"."event_projection", '$.message')) WHERE key IN ('role', 'provider', 'model', 'timestamp', 'excludeFromContext', 'toolCallId', 'toolUseId', 'tool_call_id', 'tool_use_id', 'callId', 'call_id', 'toolName', 'isError', 'stopReason', 'customType', 'display')),
      '$.content', json((SELECT json_group_array(json_object(
    'type', CASE WHEN typeof(key) = 'integer' AND key < 8
    THEN json_extract("source"."event_projection", fullkey || '.type')
    ELSE json_extract(value, '$.type') END, 'id', CASE WHEN typeof(key) = 'integer' AND key < 8
    THEN json_extract("source"."event_projection", fullkey || '.id')
    ELSE json_extract(value, '$.id') END,
    'name', CASE WHEN typeof(key) = 'integer' AND key < 8
    THEN json_extract("source"."event_projection", fullkey || '.name')
    ELSE json_extract(value, '$.name') END))
    FROM json_each("source"."event_projection", '$.message.content') WHERE type = 'object'
    AND CASE WHEN typeof(key) = 'integer' AND key < 8
    THEN json_extract("source"."event_projection", fullkey || '.type')
    ELSE json_extract(value, '$.type') END IN ('toolCall', 'toolUse', 'functionCall'))), '$.command', '', '$.output', '',
      '$.providerReplay', json_object('type', json_extract("source"."event_projection", '$.message.providerReplay.type')),
      '$.details', json_object('openclawSyntheticMissingToolResult', json(CASE WHEN (COALESCE(json_extract("source"."event_projection", '$.message.details.openclawSyntheticMissingToolResult'), 0) = 1 OR EXISTS (
    SELECT 1 FROM json_each("source"."event_projection", '$.message.content') WHERE type = 'object'
    AND CASE WHEN typeof(key) = 'integer' AND key < 8
    THEN json_extract("source"."event_projection", fullkey || '.type')
    ELSE json_extract(value, '$.type') END = 'text' AND CASE WHEN typeof(key) = 'integer' AND key < 8
    THEN json_extract("source"."event_projection", fullkey || '.text')
    ELSE json_extract(value, '$.text') END = '[openclaw] missing tool result in session history; inserted synthetic error result for transcript repair.')) THEN 'true' ELSE 'false' END))))
    WHEN 'custom_message' THEN json_set((SELECT json_group_object(key, CASE type
    WHEN 'object' THEN json(value) WHEN 'array' THEN json(value)
    WHEN 'true' THEN json('true') WHEN 'false' THEN json('false')
    ELSE value END) FROM json_each("source"."event_projection") WHERE key IN ('type', 'id', 'parentId', 'targetId', 'appendParentId', 'appendMode', 'timestamp', 'version', 'cwd', 'firstKeptEntryId', 'reason', 'tokensBefore', 'thinkingLevel', 'provider', 'modelId', 'fromId', 'customType', 'display', 'label', 'name')), '$.content', json('[]'))
    WHEN 'compaction' THEN json_set((SELECT json_group_object(key, CASE type
    WHEN 'object' THEN json(value) WHEN 'array' THEN json(value)
    WHEN 'true' THEN json('true') WHEN 'false' THEN json('false')
    ELSE value END) FROM json_each("source"."event_projection") WHERE key IN ('type', 'id', 'parentId', 'targetId', 'appendParentId', 'appendMode', 'timestamp', 'version', 'cwd', 'firstKeptEntryId', 'reason', 'tokensBefore', 'thinkingLevel', 'provider', 'modelId', 'fromId', 'customType', 'display', 'label', 'name')), '$.summary', '')
    WHEN 'branch_summary' THEN json_set((SELECT json_group_object(key, CASE type
    WHEN 'object' THEN json(value) WHEN 'array' THEN json(value)
    WHEN 'true' THEN json('true') WHEN 'false' THEN json('false')
    ELSE value END) FROM json_each("source"."event_projection") WHERE key IN ('type', 'id', 'parentId', 'targetId', 'appendParentId', 'appendMode', 'timestamp', 'version', 'cwd', 'firstKeptEntryId', 'reason', 'tokensBefore', 'thinkingLevel', 'provider', 'modelId', 'fromId', 'customType', 'display', 'label', 'name')), '$.summary', '')
    ELSE (SELECT json_group_object(key, CASE type
    WHEN 'object' THEN json(value) WHEN 'array' THEN json(value)
    WHEN 'true' THEN json('true') WHEN 'false' THEN json('false')
    ELSE value END) FROM json_each("source"."event_projection") WHERE key IN ('type', 'id', 'parentId', 'targetId', 'appendParentId', 'appendMode', 'timestamp', 'version', 'cwd', 'firstKeptEntryId', 'reason', 'tokensBefore', 'thinkingLevel', 'provider', 'modelId', 'fromId', 'customType', 'display', 'label', 'name')) END),
      'modelBytes', octet_length(CASE WHEN 0 = 1
    THEN json_remove(CASE WHEN json_extract("source"."event_projection", '$.message.role') = 'toolResult'
    THEN json_remove(json_remove("source"."event_projection", '$.message.__openclaw.upstreamUserText'), '$.message.details') ELSE json_remove("source"."event_projection", '$.message.__openclaw.upstreamUserText') END, '$.message.providerReplay') ELSE CASE WHEN json_extract("source"."event_projection", '$.message.role') = 'toolResult'
    THEN json_remove(json_remove("source"."event_projection", '$.message.__openclaw.upstreamUserText'), '$.message.details') ELSE json_remove("source"."event_projection", '$.message.__openclaw.upstreamUserText') END END),
      'modelWithoutCheckpointBytes', octet_length(CASE WHEN 1 = 1
    THEN json_remove(CASE WHEN json_extract("source"."event_projection", '$.message.role') = 'toolResult'
    THEN json_remove(json_remove("source"."event_projection", '$.message.__openclaw.upstreamUserText'), '$.message.details') ELSE json_remove("source"."event_projection", '$.message.__openclaw.upstreamUserText') END, '$.message.providerReplay') ELSE CASE WHEN json_extract("source"."event_projection", '$.message.role') = 'toolResult'
    THEN json_remove(json_remove("source"."event_projection", '$.message.__openclaw.upstreamUserText'), '$.message.details') ELSE json_remove("source"."event_projection", '$.message.__openclaw.upstreamUserText') END END),
      'withoutCustomDataBytes', octet_length(json_remove("source"."event_projection", '$.data')))
    END ELSE NULL END as "navigation_json" from "source") select CASE WHEN json_valid(metadata.navigation_json)
          AND octet_length(metadata.navigation_json) <= 16384
          THEN metadata.navigation_json ELSE NULL END as "navigation_json" from "metadata";
