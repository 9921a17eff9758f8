
use builtin;
use str;

set edit:completion:arg-completer[openclaw-sessions] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'openclaw-sessions'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'openclaw-sessions'= {
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand status 'State dir, config, agents, databases, sizes, pending migrations and custody'
            cand list 'One row per session, with filters and sorting'
            cand ls 'One row per session, with filters and sorting'
            cand show 'One session in full: entry, promoted columns, transcript windows, archives'
            cand transcript 'Read transcripts: cat, delta pages, text catalog, export'
            cand patch 'Change an entry and its projected columns, as OpenClaw''s entry writer would'
            cand archive 'Set archivedAt/archiveReason on sessions, as `openclaw sessions archive` does'
            cand unarchive 'Clear archivedAt/archivedBy/archiveReason'
            cand delete 'Delete sessions as OpenClaw''s deleteSessionEntry does, archiving their transcripts'
            cand prune 'The maintenance pass for cron: archive or delete what OpenClaw''s maintenance would'
            cand reclaim 'Give agent databases'' free pages back to the file system (VACUUM or incremental vacuum)'
            cand backup 'Snapshots in OpenClaw''s format: create, list, verify, restore'
            cand doctor 'Find what breaks stores; --fix applies the safe repairs'
            cand migrate 'Migrate old layouts: a legacy file store into SQLite, ACPX state adoption'
            cand du 'Disk use per agent against the maintenance budget'
            cand marker 'Format or parse the SQLite session file marker'
            cand custody 'Offline custody of the state dir: status, run a command under it, clear stale locks'
            cand completions 'Print a shell completion script'
            cand man 'Write man pages'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'openclaw-sessions;status'= {
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;list'= {
            cand --active 'Only sessions updated within the last MINUTES'
            cand --kind 'Only sessions of this kind (repeatable)'
            cand --match 'Only sessions whose key, label or display name contains TEXT (case-insensitive)'
            cand --updated-before 'Only sessions updated before TIME (epoch ms, ISO-8601, or an age like 7d)'
            cand --updated-after 'Only sessions updated after TIME'
            cand --limit 'At most N rows, or `all`'
            cand --sort 'Newest first by this field'
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --archived 'Only archived sessions'
            cand --no-archived 'Leave archived sessions out'
            cand --bytes 'Include transcript bytes in --json output (reads every listed transcript; the table always shows them for its rows)'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;ls'= {
            cand --active 'Only sessions updated within the last MINUTES'
            cand --kind 'Only sessions of this kind (repeatable)'
            cand --match 'Only sessions whose key, label or display name contains TEXT (case-insensitive)'
            cand --updated-before 'Only sessions updated before TIME (epoch ms, ISO-8601, or an age like 7d)'
            cand --updated-after 'Only sessions updated after TIME'
            cand --limit 'At most N rows, or `all`'
            cand --sort 'Newest first by this field'
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --archived 'Only archived sessions'
            cand --no-archived 'Leave archived sessions out'
            cand --bytes 'Include transcript bytes in --json output (reads every listed transcript; the table always shows them for its rows)'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;show'= {
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;transcript'= {
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
            cand cat 'Print events as JSON Lines, each line the stored event JSON byte for byte'
            cand delta 'One bounded page of events with an opaque cursor'
            cand catalog 'Newest-first pages of user and assistant text'
            cand export 'Write the transcript as legacy JSONL (re-importable) or Markdown'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'openclaw-sessions;transcript;cat'= {
            cand --window 'Read this transcript generation of the session instead of the current one'
            cand --from-seq 'Start at this sequence number'
            cand --limit 'At most N events'
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --visible 'Only the active branch''s user and assistant messages and tool results'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;transcript;delta'= {
            cand --cursor 'Continue after the page this cursor came from'
            cand --max-events 'Events per page (1..=10000, default 1000)'
            cand --max-bytes 'Serialized bytes per page (1..=67108864, default 1000000)'
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --visible 'Active-branch messages instead of raw events'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;transcript;catalog'= {
            cand --cursor 'cursor'
            cand --limit 'Items per page (1..=200, default 50)'
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;transcript;export'= {
            cand --format 'format'
            cand -o 'Write to FILE (created 0600, never overwritten) instead of stdout'
            cand --output 'Write to FILE (created 0600, never overwritten) instead of stdout'
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;transcript;help'= {
            cand cat 'Print events as JSON Lines, each line the stored event JSON byte for byte'
            cand delta 'One bounded page of events with an opaque cursor'
            cand catalog 'Newest-first pages of user and assistant text'
            cand export 'Write the transcript as legacy JSONL (re-importable) or Markdown'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'openclaw-sessions;transcript;help;cat'= {
        }
        &'openclaw-sessions;transcript;help;delta'= {
        }
        &'openclaw-sessions;transcript;help;catalog'= {
        }
        &'openclaw-sessions;transcript;help;export'= {
        }
        &'openclaw-sessions;transcript;help;help'= {
        }
        &'openclaw-sessions;patch'= {
            cand --set 'Set a field to a JSON value (a bare word is taken as a string): `--set label=''"Ops"''`'
            cand --unset 'Remove a field'
            cand --merge 'Shallow-merge a JSON object into the entry'
            cand --replace-entry 'Replace the whole entry with the JSON object in FILE (`-` for stdin)'
            cand --expect-updated-at 'Refuse unless updatedAt is exactly MS'
            cand --expect-session-id 'Refuse unless the session id is ID (`null`: expect none)'
            cand --wait 'Wait up to SECONDS for a live owner of the state dir to finish'
            cand --backup-dir 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)'
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --preserve-activity 'Keep updatedAt (otherwise it becomes now)'
            cand -n 'Show the plan and change nothing'
            cand --dry-run 'Show the plan and change nothing'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;archive'= {
            cand --wait 'Wait up to SECONDS for a live owner of the state dir to finish'
            cand --backup-dir 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)'
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand -n 'Show the plan and change nothing'
            cand --dry-run 'Show the plan and change nothing'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;unarchive'= {
            cand --wait 'Wait up to SECONDS for a live owner of the state dir to finish'
            cand --backup-dir 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)'
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand -n 'Show the plan and change nothing'
            cand --dry-run 'Show the plan and change nothing'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;delete'= {
            cand --expect-session-id 'Refuse keys whose session id is not ID (`null`: expect none)'
            cand --expect-updated-at 'Refuse keys whose updatedAt is not MS'
            cand --wait 'Wait up to SECONDS for a live owner of the state dir to finish'
            cand --backup-dir 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)'
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --no-archive 'Keep the transcripts (the node becomes a tombstone) instead of archiving them'
            cand -n 'Show the plan and change nothing'
            cand --dry-run 'Show the plan and change nothing'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;prune'= {
            cand --older-than 'Archive (or remove, for machine-made sessions) what was not updated for this long (default: session.maintenance.pruneAfter, 30d)'
            cand --max-entries 'Keep at most N unarchived sessions per agent (default: maxEntries, 5000)'
            cand --max-disk-bytes 'Disk budget per agent (default: maxDiskBytes, 10gb; reported)'
            cand --active-key 'Never touch this session (as OpenClaw''s --active-key)'
            cand --wait 'Wait up to SECONDS for a live owner of the state dir to finish'
            cand --backup-dir 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)'
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --artifacts 'Also remove archive files past resetArchiveRetention (unreferenced transcripts and temp files are handled on every run, as OpenClaw''s cleanup does)'
            cand --enforce 'Apply even when session.maintenance.mode is warn (as OpenClaw''s --enforce)'
            cand --fix-missing 'First remove sessions whose transcripts hold no message (as OpenClaw''s --fix-missing); a transcript with a row that cannot be read is kept, and what is removed is archived'
            cand --fix-dm-scope 'First remove direct-message sessions left from before session.dmScope main (as OpenClaw''s --fix-dm-scope; only when dmScope is main)'
            cand --reclaim 'Then give the databases'' free pages back to the file system (as `reclaim` does)'
            cand -n 'Show the plan and change nothing'
            cand --dry-run 'Show the plan and change nothing'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;reclaim'= {
            cand --wait 'Wait up to SECONDS for a live owner of the state dir to finish'
            cand --backup-dir 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)'
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand -n 'Show the plan and change nothing'
            cand --dry-run 'Show the plan and change nothing'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;backup'= {
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
            cand create 'Snapshot agent databases (default agent, --agent, --all-agents) or the global one'
            cand list 'Snapshots in a repository, newest first'
            cand verify 'Check snapshots: files, manifest, sha256, integrity, owner, schema version'
            cand restore 'Restore a snapshot to a fresh path, or in place under custody'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'openclaw-sessions;backup;create'= {
            cand --repository 'The snapshot repository (created 0700 if missing)'
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --global 'Snapshot the global state database instead of agent databases'
            cand --verify 'Verify each snapshot again after publication'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;backup;list'= {
            cand --repository 'repository'
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;backup;verify'= {
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;backup;restore'= {
            cand --target 'Write the database to this fresh path (never over an existing file)'
            cand --wait 'Wait up to SECONDS for a live owner of the state dir to finish (--in-place)'
            cand --backup-dir 'With --in-place: where the snapshot of the current database goes (default: the repository of SNAPSHOT)'
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --in-place 'Replace the live database (custody; the current one is snapshotted first)'
            cand -n 'With --in-place: show what would be replaced and change nothing'
            cand --dry-run 'With --in-place: show what would be replaced and change nothing'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;backup;help'= {
            cand create 'Snapshot agent databases (default agent, --agent, --all-agents) or the global one'
            cand list 'Snapshots in a repository, newest first'
            cand verify 'Check snapshots: files, manifest, sha256, integrity, owner, schema version'
            cand restore 'Restore a snapshot to a fresh path, or in place under custody'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'openclaw-sessions;backup;help;create'= {
        }
        &'openclaw-sessions;backup;help;list'= {
        }
        &'openclaw-sessions;backup;help;verify'= {
        }
        &'openclaw-sessions;backup;help;restore'= {
        }
        &'openclaw-sessions;backup;help;help'= {
        }
        &'openclaw-sessions;doctor'= {
            cand --backup-dir 'Where --fix writes its snapshots (default: <state>/openclaw-sessions-snapshots)'
            cand --wait 'Wait up to SECONDS for a live owner of the state dir to finish (--fix)'
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --fix 'Apply the safe repairs (custody; a verified snapshot of each changed database first)'
            cand -n 'With --fix: show the repairs and change nothing'
            cand --dry-run 'With --fix: show the repairs and change nothing'
            cand --full 'Full integrity_check instead of quick_check'
            cand --list-checks 'List the checks and exit'
            cand --strict 'Warnings also make the exit code 3'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;migrate'= {
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
            cand legacy 'Import a legacy sessions.json and its JSONL transcripts into the agent database, as `openclaw doctor --session-sqlite import` does, then archive the sources'
            cand acpx 'Move the ACPX plugin''s state from <workspace>/state to <state>/acpx'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'openclaw-sessions;migrate;legacy'= {
            cand --wait 'Wait up to SECONDS for a live owner of the state dir to finish'
            cand --backup-dir 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)'
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand -n 'Show the plan and change nothing'
            cand --dry-run 'Show the plan and change nothing'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;migrate;acpx'= {
            cand --workspace 'The agent workspace holding `state/` (default: from the config, else <state>/workspace)'
            cand --wait 'Wait up to SECONDS for a live owner of the state dir to finish'
            cand --backup-dir 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)'
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand -n 'Show the plan and change nothing'
            cand --dry-run 'Show the plan and change nothing'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;migrate;help'= {
            cand legacy 'Import a legacy sessions.json and its JSONL transcripts into the agent database, as `openclaw doctor --session-sqlite import` does, then archive the sources'
            cand acpx 'Move the ACPX plugin''s state from <workspace>/state to <state>/acpx'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'openclaw-sessions;migrate;help;legacy'= {
        }
        &'openclaw-sessions;migrate;help;acpx'= {
        }
        &'openclaw-sessions;migrate;help;help'= {
        }
        &'openclaw-sessions;du'= {
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;marker'= {
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
            cand format 'Print `sqlite:<agentId>:<sessionId>:<absolute store path>` for a session'
            cand parse 'Split a marker into its parts'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'openclaw-sessions;marker;format'= {
            cand --session-id 'The session id'
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;marker;parse'= {
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;marker;help'= {
            cand format 'Print `sqlite:<agentId>:<sessionId>:<absolute store path>` for a session'
            cand parse 'Split a marker into its parts'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'openclaw-sessions;marker;help;format'= {
        }
        &'openclaw-sessions;marker;help;parse'= {
        }
        &'openclaw-sessions;marker;help;help'= {
        }
        &'openclaw-sessions;custody'= {
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
            cand status 'Who owns the state dir, which locks exist, and what a mutation would do'
            cand run 'Hold offline custody while CMD runs; exit with its code'
            cand clear-stale 'Remove stale lock files (dead owners); never a live one'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'openclaw-sessions;custody;status'= {
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;custody;run'= {
            cand --wait 'Keep retrying up to SECONDS while a live owner holds the state dir'
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;custody;clear-stale'= {
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand -n 'Name the stale locks and remove nothing (read without taking any lock)'
            cand --dry-run 'Name the stale locks and remove nothing (read without taking any lock)'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;custody;help'= {
            cand status 'Who owns the state dir, which locks exist, and what a mutation would do'
            cand run 'Hold offline custody while CMD runs; exit with its code'
            cand clear-stale 'Remove stale lock files (dead owners); never a live one'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'openclaw-sessions;custody;help;status'= {
        }
        &'openclaw-sessions;custody;help;run'= {
        }
        &'openclaw-sessions;custody;help;clear-stale'= {
        }
        &'openclaw-sessions;custody;help;help'= {
        }
        &'openclaw-sessions;completions'= {
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;man'= {
            cand --out-dir 'Write one page per command into DIR (openclaw-sessions.1, openclaw-sessions-list.1, ...); without it the main page goes to stdout'
            cand --state-dir 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)'
            cand --profile 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)'
            cand --config 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)'
            cand --agent 'Work on this agent (repeatable)'
            cand --store 'One database (or legacy sessions.json) named directly'
            cand --color 'Colors on stderr (NO_COLOR is respected)'
            cand --all-agents 'Work on every agent'
            cand --json 'Print one JSON document on stdout'
            cand -q 'Only data and errors'
            cand --quiet 'Only data and errors'
            cand -v 'More detail on stderr'
            cand --verbose 'More detail on stderr'
            cand --no-progress 'Never draw progress bars'
            cand -y 'Answer yes to confirmations'
            cand --yes 'Answer yes to confirmations'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'openclaw-sessions;help'= {
            cand status 'State dir, config, agents, databases, sizes, pending migrations and custody'
            cand list 'One row per session, with filters and sorting'
            cand show 'One session in full: entry, promoted columns, transcript windows, archives'
            cand transcript 'Read transcripts: cat, delta pages, text catalog, export'
            cand patch 'Change an entry and its projected columns, as OpenClaw''s entry writer would'
            cand archive 'Set archivedAt/archiveReason on sessions, as `openclaw sessions archive` does'
            cand unarchive 'Clear archivedAt/archivedBy/archiveReason'
            cand delete 'Delete sessions as OpenClaw''s deleteSessionEntry does, archiving their transcripts'
            cand prune 'The maintenance pass for cron: archive or delete what OpenClaw''s maintenance would'
            cand reclaim 'Give agent databases'' free pages back to the file system (VACUUM or incremental vacuum)'
            cand backup 'Snapshots in OpenClaw''s format: create, list, verify, restore'
            cand doctor 'Find what breaks stores; --fix applies the safe repairs'
            cand migrate 'Migrate old layouts: a legacy file store into SQLite, ACPX state adoption'
            cand du 'Disk use per agent against the maintenance budget'
            cand marker 'Format or parse the SQLite session file marker'
            cand custody 'Offline custody of the state dir: status, run a command under it, clear stale locks'
            cand completions 'Print a shell completion script'
            cand man 'Write man pages'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'openclaw-sessions;help;status'= {
        }
        &'openclaw-sessions;help;list'= {
        }
        &'openclaw-sessions;help;show'= {
        }
        &'openclaw-sessions;help;transcript'= {
            cand cat 'Print events as JSON Lines, each line the stored event JSON byte for byte'
            cand delta 'One bounded page of events with an opaque cursor'
            cand catalog 'Newest-first pages of user and assistant text'
            cand export 'Write the transcript as legacy JSONL (re-importable) or Markdown'
        }
        &'openclaw-sessions;help;transcript;cat'= {
        }
        &'openclaw-sessions;help;transcript;delta'= {
        }
        &'openclaw-sessions;help;transcript;catalog'= {
        }
        &'openclaw-sessions;help;transcript;export'= {
        }
        &'openclaw-sessions;help;patch'= {
        }
        &'openclaw-sessions;help;archive'= {
        }
        &'openclaw-sessions;help;unarchive'= {
        }
        &'openclaw-sessions;help;delete'= {
        }
        &'openclaw-sessions;help;prune'= {
        }
        &'openclaw-sessions;help;reclaim'= {
        }
        &'openclaw-sessions;help;backup'= {
            cand create 'Snapshot agent databases (default agent, --agent, --all-agents) or the global one'
            cand list 'Snapshots in a repository, newest first'
            cand verify 'Check snapshots: files, manifest, sha256, integrity, owner, schema version'
            cand restore 'Restore a snapshot to a fresh path, or in place under custody'
        }
        &'openclaw-sessions;help;backup;create'= {
        }
        &'openclaw-sessions;help;backup;list'= {
        }
        &'openclaw-sessions;help;backup;verify'= {
        }
        &'openclaw-sessions;help;backup;restore'= {
        }
        &'openclaw-sessions;help;doctor'= {
        }
        &'openclaw-sessions;help;migrate'= {
            cand legacy 'Import a legacy sessions.json and its JSONL transcripts into the agent database, as `openclaw doctor --session-sqlite import` does, then archive the sources'
            cand acpx 'Move the ACPX plugin''s state from <workspace>/state to <state>/acpx'
        }
        &'openclaw-sessions;help;migrate;legacy'= {
        }
        &'openclaw-sessions;help;migrate;acpx'= {
        }
        &'openclaw-sessions;help;du'= {
        }
        &'openclaw-sessions;help;marker'= {
            cand format 'Print `sqlite:<agentId>:<sessionId>:<absolute store path>` for a session'
            cand parse 'Split a marker into its parts'
        }
        &'openclaw-sessions;help;marker;format'= {
        }
        &'openclaw-sessions;help;marker;parse'= {
        }
        &'openclaw-sessions;help;custody'= {
            cand status 'Who owns the state dir, which locks exist, and what a mutation would do'
            cand run 'Hold offline custody while CMD runs; exit with its code'
            cand clear-stale 'Remove stale lock files (dead owners); never a live one'
        }
        &'openclaw-sessions;help;custody;status'= {
        }
        &'openclaw-sessions;help;custody;run'= {
        }
        &'openclaw-sessions;help;custody;clear-stale'= {
        }
        &'openclaw-sessions;help;completions'= {
        }
        &'openclaw-sessions;help;man'= {
        }
        &'openclaw-sessions;help;help'= {
        }
    ]
    $completions[$command]
}
