#!/usr/bin/env bash
# A secret for `secrets scrub` to find (bench/run.sh): an AWS access key shape put into every
# 50th plain transcript row of agent AGENT, beside a message's text, the JSON kept valid.
#   bash bench/seed-secret.sh STATE_DIR AGENT
set -euo pipefail
db="$1/agents/$2/agent/openclaw-agent.sqlite"
sqlite3 "$db" "UPDATE transcript_events SET event_json = replace(event_json, '\"text\":\"', '\"text\":\"AWS_ACCESS_KEY_ID=AKIAQ7X2LMNB4RT56R5T ') \
  WHERE event_json IS NOT NULL AND instr(event_json, '\"text\":\"') > 0 AND rowid % 50 = 0; \
  SELECT changes();"
