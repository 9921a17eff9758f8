
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'openclaw-sessions' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'openclaw-sessions'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'openclaw-sessions' {
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'State dir, config, agents, databases, sizes, pending migrations and custody')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'One row per session, with filters and sorting')
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'One row per session, with filters and sorting')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'One session in full: entry, promoted columns, transcript windows, archives')
            [CompletionResult]::new('transcript', 'transcript', [CompletionResultType]::ParameterValue, 'Read transcripts: cat, delta pages, text catalog, export')
            [CompletionResult]::new('patch', 'patch', [CompletionResultType]::ParameterValue, 'Change an entry and its projected columns, as OpenClaw''s entry writer would')
            [CompletionResult]::new('archive', 'archive', [CompletionResultType]::ParameterValue, 'Set archivedAt/archiveReason on sessions, as `openclaw sessions archive` does')
            [CompletionResult]::new('unarchive', 'unarchive', [CompletionResultType]::ParameterValue, 'Clear archivedAt/archivedBy/archiveReason')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete sessions as OpenClaw''s deleteSessionEntry does, archiving their transcripts')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'The maintenance pass for cron: archive or delete what OpenClaw''s maintenance would')
            [CompletionResult]::new('reclaim', 'reclaim', [CompletionResultType]::ParameterValue, 'Give agent databases'' free pages back to the file system (VACUUM or incremental vacuum)')
            [CompletionResult]::new('backup', 'backup', [CompletionResultType]::ParameterValue, 'Snapshots in OpenClaw''s format: create, list, verify, restore')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Find what breaks stores; --fix applies the safe repairs')
            [CompletionResult]::new('migrate', 'migrate', [CompletionResultType]::ParameterValue, 'Migrate old layouts: a legacy file store into SQLite, ACPX state adoption')
            [CompletionResult]::new('du', 'du', [CompletionResultType]::ParameterValue, 'Disk use per agent against the maintenance budget')
            [CompletionResult]::new('marker', 'marker', [CompletionResultType]::ParameterValue, 'Format or parse the SQLite session file marker')
            [CompletionResult]::new('custody', 'custody', [CompletionResultType]::ParameterValue, 'Offline custody of the state dir: status, run a command under it, clear stale locks')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Write man pages')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'openclaw-sessions;status' {
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;list' {
            [CompletionResult]::new('--active', '--active', [CompletionResultType]::ParameterName, 'Only sessions updated within the last MINUTES')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only sessions of this kind (repeatable)')
            [CompletionResult]::new('--match', '--match', [CompletionResultType]::ParameterName, 'Only sessions whose key, label or display name contains TEXT (case-insensitive)')
            [CompletionResult]::new('--updated-before', '--updated-before', [CompletionResultType]::ParameterName, 'Only sessions updated before TIME (epoch ms, ISO-8601, or an age like 7d)')
            [CompletionResult]::new('--updated-after', '--updated-after', [CompletionResultType]::ParameterName, 'Only sessions updated after TIME')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most N rows, or `all`')
            [CompletionResult]::new('--sort', '--sort', [CompletionResultType]::ParameterName, 'Newest first by this field')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--archived', '--archived', [CompletionResultType]::ParameterName, 'Only archived sessions')
            [CompletionResult]::new('--no-archived', '--no-archived', [CompletionResultType]::ParameterName, 'Leave archived sessions out')
            [CompletionResult]::new('--bytes', '--bytes', [CompletionResultType]::ParameterName, 'Include transcript bytes in --json output (reads every listed transcript; the table always shows them for its rows)')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;ls' {
            [CompletionResult]::new('--active', '--active', [CompletionResultType]::ParameterName, 'Only sessions updated within the last MINUTES')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only sessions of this kind (repeatable)')
            [CompletionResult]::new('--match', '--match', [CompletionResultType]::ParameterName, 'Only sessions whose key, label or display name contains TEXT (case-insensitive)')
            [CompletionResult]::new('--updated-before', '--updated-before', [CompletionResultType]::ParameterName, 'Only sessions updated before TIME (epoch ms, ISO-8601, or an age like 7d)')
            [CompletionResult]::new('--updated-after', '--updated-after', [CompletionResultType]::ParameterName, 'Only sessions updated after TIME')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most N rows, or `all`')
            [CompletionResult]::new('--sort', '--sort', [CompletionResultType]::ParameterName, 'Newest first by this field')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--archived', '--archived', [CompletionResultType]::ParameterName, 'Only archived sessions')
            [CompletionResult]::new('--no-archived', '--no-archived', [CompletionResultType]::ParameterName, 'Leave archived sessions out')
            [CompletionResult]::new('--bytes', '--bytes', [CompletionResultType]::ParameterName, 'Include transcript bytes in --json output (reads every listed transcript; the table always shows them for its rows)')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;show' {
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;transcript' {
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('cat', 'cat', [CompletionResultType]::ParameterValue, 'Print events as JSON Lines, each line the stored event JSON byte for byte')
            [CompletionResult]::new('delta', 'delta', [CompletionResultType]::ParameterValue, 'One bounded page of events with an opaque cursor')
            [CompletionResult]::new('catalog', 'catalog', [CompletionResultType]::ParameterValue, 'Newest-first pages of user and assistant text')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write the transcript as legacy JSONL (re-importable) or Markdown')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'openclaw-sessions;transcript;cat' {
            [CompletionResult]::new('--window', '--window', [CompletionResultType]::ParameterName, 'Read this transcript generation of the session instead of the current one')
            [CompletionResult]::new('--from-seq', '--from-seq', [CompletionResultType]::ParameterName, 'Start at this sequence number')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most N events')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--visible', '--visible', [CompletionResultType]::ParameterName, 'Only the active branch''s user and assistant messages and tool results')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;transcript;delta' {
            [CompletionResult]::new('--cursor', '--cursor', [CompletionResultType]::ParameterName, 'Continue after the page this cursor came from')
            [CompletionResult]::new('--max-events', '--max-events', [CompletionResultType]::ParameterName, 'Events per page (1..=10000, default 1000)')
            [CompletionResult]::new('--max-bytes', '--max-bytes', [CompletionResultType]::ParameterName, 'Serialized bytes per page (1..=67108864, default 1000000)')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--visible', '--visible', [CompletionResultType]::ParameterName, 'Active-branch messages instead of raw events')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;transcript;catalog' {
            [CompletionResult]::new('--cursor', '--cursor', [CompletionResultType]::ParameterName, 'cursor')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Items per page (1..=200, default 50)')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;transcript;export' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write to FILE (created 0600, never overwritten) instead of stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write to FILE (created 0600, never overwritten) instead of stdout')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;transcript;help' {
            [CompletionResult]::new('cat', 'cat', [CompletionResultType]::ParameterValue, 'Print events as JSON Lines, each line the stored event JSON byte for byte')
            [CompletionResult]::new('delta', 'delta', [CompletionResultType]::ParameterValue, 'One bounded page of events with an opaque cursor')
            [CompletionResult]::new('catalog', 'catalog', [CompletionResultType]::ParameterValue, 'Newest-first pages of user and assistant text')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write the transcript as legacy JSONL (re-importable) or Markdown')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'openclaw-sessions;transcript;help;cat' {
            break
        }
        'openclaw-sessions;transcript;help;delta' {
            break
        }
        'openclaw-sessions;transcript;help;catalog' {
            break
        }
        'openclaw-sessions;transcript;help;export' {
            break
        }
        'openclaw-sessions;transcript;help;help' {
            break
        }
        'openclaw-sessions;patch' {
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a field to a JSON value (a bare word is taken as a string): `--set label=''"Ops"''`')
            [CompletionResult]::new('--unset', '--unset', [CompletionResultType]::ParameterName, 'Remove a field')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'Shallow-merge a JSON object into the entry')
            [CompletionResult]::new('--replace-entry', '--replace-entry', [CompletionResultType]::ParameterName, 'Replace the whole entry with the JSON object in FILE (`-` for stdin)')
            [CompletionResult]::new('--expect-updated-at', '--expect-updated-at', [CompletionResultType]::ParameterName, 'Refuse unless updatedAt is exactly MS')
            [CompletionResult]::new('--expect-session-id', '--expect-session-id', [CompletionResultType]::ParameterName, 'Refuse unless the session id is ID (`null`: expect none)')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Wait up to SECONDS for a live owner of the state dir to finish')
            [CompletionResult]::new('--backup-dir', '--backup-dir', [CompletionResultType]::ParameterName, 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--preserve-activity', '--preserve-activity', [CompletionResultType]::ParameterName, 'Keep updatedAt (otherwise it becomes now)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Show the plan and change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show the plan and change nothing')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;archive' {
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Wait up to SECONDS for a live owner of the state dir to finish')
            [CompletionResult]::new('--backup-dir', '--backup-dir', [CompletionResultType]::ParameterName, 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Show the plan and change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show the plan and change nothing')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;unarchive' {
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Wait up to SECONDS for a live owner of the state dir to finish')
            [CompletionResult]::new('--backup-dir', '--backup-dir', [CompletionResultType]::ParameterName, 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Show the plan and change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show the plan and change nothing')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;delete' {
            [CompletionResult]::new('--expect-session-id', '--expect-session-id', [CompletionResultType]::ParameterName, 'Refuse keys whose session id is not ID (`null`: expect none)')
            [CompletionResult]::new('--expect-updated-at', '--expect-updated-at', [CompletionResultType]::ParameterName, 'Refuse keys whose updatedAt is not MS')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Wait up to SECONDS for a live owner of the state dir to finish')
            [CompletionResult]::new('--backup-dir', '--backup-dir', [CompletionResultType]::ParameterName, 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--no-archive', '--no-archive', [CompletionResultType]::ParameterName, 'Keep the transcripts (the node becomes a tombstone) instead of archiving them')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Show the plan and change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show the plan and change nothing')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;prune' {
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Archive (or remove, for machine-made sessions) what was not updated for this long (default: session.maintenance.pruneAfter, 30d)')
            [CompletionResult]::new('--max-entries', '--max-entries', [CompletionResultType]::ParameterName, 'Keep at most N unarchived sessions per agent (default: maxEntries, 5000)')
            [CompletionResult]::new('--max-disk-bytes', '--max-disk-bytes', [CompletionResultType]::ParameterName, 'Disk budget per agent (default: maxDiskBytes, 10gb; reported)')
            [CompletionResult]::new('--active-key', '--active-key', [CompletionResultType]::ParameterName, 'Never touch this session (as OpenClaw''s --active-key)')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Wait up to SECONDS for a live owner of the state dir to finish')
            [CompletionResult]::new('--backup-dir', '--backup-dir', [CompletionResultType]::ParameterName, 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--artifacts', '--artifacts', [CompletionResultType]::ParameterName, 'Also remove archive files past resetArchiveRetention (unreferenced transcripts and temp files are handled on every run, as OpenClaw''s cleanup does)')
            [CompletionResult]::new('--enforce', '--enforce', [CompletionResultType]::ParameterName, 'Apply even when session.maintenance.mode is warn (as OpenClaw''s --enforce)')
            [CompletionResult]::new('--fix-missing', '--fix-missing', [CompletionResultType]::ParameterName, 'First remove sessions whose transcripts hold no message (as OpenClaw''s --fix-missing); a transcript with a row that cannot be read is kept, and what is removed is archived')
            [CompletionResult]::new('--fix-dm-scope', '--fix-dm-scope', [CompletionResultType]::ParameterName, 'First remove direct-message sessions left from before session.dmScope main (as OpenClaw''s --fix-dm-scope; only when dmScope is main)')
            [CompletionResult]::new('--reclaim', '--reclaim', [CompletionResultType]::ParameterName, 'Then give the databases'' free pages back to the file system (as `reclaim` does)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Show the plan and change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show the plan and change nothing')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;reclaim' {
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Wait up to SECONDS for a live owner of the state dir to finish')
            [CompletionResult]::new('--backup-dir', '--backup-dir', [CompletionResultType]::ParameterName, 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Show the plan and change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show the plan and change nothing')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;backup' {
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Snapshot agent databases (default agent, --agent, --all-agents) or the global one')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Snapshots in a repository, newest first')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check snapshots: files, manifest, sha256, integrity, owner, schema version')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Restore a snapshot to a fresh path, or in place under custody')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'openclaw-sessions;backup;create' {
            [CompletionResult]::new('--repository', '--repository', [CompletionResultType]::ParameterName, 'The snapshot repository (created 0700 if missing)')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Snapshot the global state database instead of agent databases')
            [CompletionResult]::new('--verify', '--verify', [CompletionResultType]::ParameterName, 'Verify each snapshot again after publication')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;backup;list' {
            [CompletionResult]::new('--repository', '--repository', [CompletionResultType]::ParameterName, 'repository')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;backup;verify' {
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;backup;restore' {
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'Write the database to this fresh path (never over an existing file)')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Wait up to SECONDS for a live owner of the state dir to finish (--in-place)')
            [CompletionResult]::new('--backup-dir', '--backup-dir', [CompletionResultType]::ParameterName, 'With --in-place: where the snapshot of the current database goes (default: the repository of SNAPSHOT)')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--in-place', '--in-place', [CompletionResultType]::ParameterName, 'Replace the live database (custody; the current one is snapshotted first)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'With --in-place: show what would be replaced and change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'With --in-place: show what would be replaced and change nothing')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;backup;help' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Snapshot agent databases (default agent, --agent, --all-agents) or the global one')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Snapshots in a repository, newest first')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check snapshots: files, manifest, sha256, integrity, owner, schema version')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Restore a snapshot to a fresh path, or in place under custody')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'openclaw-sessions;backup;help;create' {
            break
        }
        'openclaw-sessions;backup;help;list' {
            break
        }
        'openclaw-sessions;backup;help;verify' {
            break
        }
        'openclaw-sessions;backup;help;restore' {
            break
        }
        'openclaw-sessions;backup;help;help' {
            break
        }
        'openclaw-sessions;doctor' {
            [CompletionResult]::new('--backup-dir', '--backup-dir', [CompletionResultType]::ParameterName, 'Where --fix writes its snapshots (default: <state>/openclaw-sessions-snapshots)')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Wait up to SECONDS for a live owner of the state dir to finish (--fix)')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--fix', '--fix', [CompletionResultType]::ParameterName, 'Apply the safe repairs (custody; a verified snapshot of each changed database first)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'With --fix: show the repairs and change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'With --fix: show the repairs and change nothing')
            [CompletionResult]::new('--full', '--full', [CompletionResultType]::ParameterName, 'Full integrity_check instead of quick_check')
            [CompletionResult]::new('--list-checks', '--list-checks', [CompletionResultType]::ParameterName, 'List the checks and exit')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Warnings also make the exit code 3')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;migrate' {
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('legacy', 'legacy', [CompletionResultType]::ParameterValue, 'Import a legacy sessions.json and its JSONL transcripts into the agent database, as `openclaw doctor --session-sqlite import` does, then archive the sources')
            [CompletionResult]::new('acpx', 'acpx', [CompletionResultType]::ParameterValue, 'Move the ACPX plugin''s state from <workspace>/state to <state>/acpx')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'openclaw-sessions;migrate;legacy' {
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Wait up to SECONDS for a live owner of the state dir to finish')
            [CompletionResult]::new('--backup-dir', '--backup-dir', [CompletionResultType]::ParameterName, 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Show the plan and change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show the plan and change nothing')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;migrate;acpx' {
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'The agent workspace holding `state/` (default: from the config, else <state>/workspace)')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Wait up to SECONDS for a live owner of the state dir to finish')
            [CompletionResult]::new('--backup-dir', '--backup-dir', [CompletionResultType]::ParameterName, 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Show the plan and change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show the plan and change nothing')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;migrate;help' {
            [CompletionResult]::new('legacy', 'legacy', [CompletionResultType]::ParameterValue, 'Import a legacy sessions.json and its JSONL transcripts into the agent database, as `openclaw doctor --session-sqlite import` does, then archive the sources')
            [CompletionResult]::new('acpx', 'acpx', [CompletionResultType]::ParameterValue, 'Move the ACPX plugin''s state from <workspace>/state to <state>/acpx')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'openclaw-sessions;migrate;help;legacy' {
            break
        }
        'openclaw-sessions;migrate;help;acpx' {
            break
        }
        'openclaw-sessions;migrate;help;help' {
            break
        }
        'openclaw-sessions;du' {
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;marker' {
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('format', 'format', [CompletionResultType]::ParameterValue, 'Print `sqlite:<agentId>:<sessionId>:<absolute store path>` for a session')
            [CompletionResult]::new('parse', 'parse', [CompletionResultType]::ParameterValue, 'Split a marker into its parts')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'openclaw-sessions;marker;format' {
            [CompletionResult]::new('--session-id', '--session-id', [CompletionResultType]::ParameterName, 'The session id')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;marker;parse' {
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;marker;help' {
            [CompletionResult]::new('format', 'format', [CompletionResultType]::ParameterValue, 'Print `sqlite:<agentId>:<sessionId>:<absolute store path>` for a session')
            [CompletionResult]::new('parse', 'parse', [CompletionResultType]::ParameterValue, 'Split a marker into its parts')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'openclaw-sessions;marker;help;format' {
            break
        }
        'openclaw-sessions;marker;help;parse' {
            break
        }
        'openclaw-sessions;marker;help;help' {
            break
        }
        'openclaw-sessions;custody' {
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Who owns the state dir, which locks exist, and what a mutation would do')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Hold offline custody while CMD runs; exit with its code')
            [CompletionResult]::new('clear-stale', 'clear-stale', [CompletionResultType]::ParameterValue, 'Remove stale lock files (dead owners); never a live one')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'openclaw-sessions;custody;status' {
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;custody;run' {
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Keep retrying up to SECONDS while a live owner holds the state dir')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;custody;clear-stale' {
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Name the stale locks and remove nothing (read without taking any lock)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Name the stale locks and remove nothing (read without taking any lock)')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;custody;help' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Who owns the state dir, which locks exist, and what a mutation would do')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Hold offline custody while CMD runs; exit with its code')
            [CompletionResult]::new('clear-stale', 'clear-stale', [CompletionResultType]::ParameterValue, 'Remove stale lock files (dead owners); never a live one')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'openclaw-sessions;custody;help;status' {
            break
        }
        'openclaw-sessions;custody;help;run' {
            break
        }
        'openclaw-sessions;custody;help;clear-stale' {
            break
        }
        'openclaw-sessions;custody;help;help' {
            break
        }
        'openclaw-sessions;completions' {
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;man' {
            [CompletionResult]::new('--out-dir', '--out-dir', [CompletionResultType]::ParameterName, 'Write one page per command into DIR (openclaw-sessions.1, openclaw-sessions-list.1, ...); without it the main page goes to stdout')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile''s, or ~/.openclaw)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Work on this agent (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'One database (or legacy sessions.json) named directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colors on stderr (NO_COLOR is respected)')
            [CompletionResult]::new('--all-agents', '--all-agents', [CompletionResultType]::ParameterName, 'Work on every agent')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail on stderr')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'openclaw-sessions;help' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'State dir, config, agents, databases, sizes, pending migrations and custody')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'One row per session, with filters and sorting')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'One session in full: entry, promoted columns, transcript windows, archives')
            [CompletionResult]::new('transcript', 'transcript', [CompletionResultType]::ParameterValue, 'Read transcripts: cat, delta pages, text catalog, export')
            [CompletionResult]::new('patch', 'patch', [CompletionResultType]::ParameterValue, 'Change an entry and its projected columns, as OpenClaw''s entry writer would')
            [CompletionResult]::new('archive', 'archive', [CompletionResultType]::ParameterValue, 'Set archivedAt/archiveReason on sessions, as `openclaw sessions archive` does')
            [CompletionResult]::new('unarchive', 'unarchive', [CompletionResultType]::ParameterValue, 'Clear archivedAt/archivedBy/archiveReason')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete sessions as OpenClaw''s deleteSessionEntry does, archiving their transcripts')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'The maintenance pass for cron: archive or delete what OpenClaw''s maintenance would')
            [CompletionResult]::new('reclaim', 'reclaim', [CompletionResultType]::ParameterValue, 'Give agent databases'' free pages back to the file system (VACUUM or incremental vacuum)')
            [CompletionResult]::new('backup', 'backup', [CompletionResultType]::ParameterValue, 'Snapshots in OpenClaw''s format: create, list, verify, restore')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Find what breaks stores; --fix applies the safe repairs')
            [CompletionResult]::new('migrate', 'migrate', [CompletionResultType]::ParameterValue, 'Migrate old layouts: a legacy file store into SQLite, ACPX state adoption')
            [CompletionResult]::new('du', 'du', [CompletionResultType]::ParameterValue, 'Disk use per agent against the maintenance budget')
            [CompletionResult]::new('marker', 'marker', [CompletionResultType]::ParameterValue, 'Format or parse the SQLite session file marker')
            [CompletionResult]::new('custody', 'custody', [CompletionResultType]::ParameterValue, 'Offline custody of the state dir: status, run a command under it, clear stale locks')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Write man pages')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'openclaw-sessions;help;status' {
            break
        }
        'openclaw-sessions;help;list' {
            break
        }
        'openclaw-sessions;help;show' {
            break
        }
        'openclaw-sessions;help;transcript' {
            [CompletionResult]::new('cat', 'cat', [CompletionResultType]::ParameterValue, 'Print events as JSON Lines, each line the stored event JSON byte for byte')
            [CompletionResult]::new('delta', 'delta', [CompletionResultType]::ParameterValue, 'One bounded page of events with an opaque cursor')
            [CompletionResult]::new('catalog', 'catalog', [CompletionResultType]::ParameterValue, 'Newest-first pages of user and assistant text')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write the transcript as legacy JSONL (re-importable) or Markdown')
            break
        }
        'openclaw-sessions;help;transcript;cat' {
            break
        }
        'openclaw-sessions;help;transcript;delta' {
            break
        }
        'openclaw-sessions;help;transcript;catalog' {
            break
        }
        'openclaw-sessions;help;transcript;export' {
            break
        }
        'openclaw-sessions;help;patch' {
            break
        }
        'openclaw-sessions;help;archive' {
            break
        }
        'openclaw-sessions;help;unarchive' {
            break
        }
        'openclaw-sessions;help;delete' {
            break
        }
        'openclaw-sessions;help;prune' {
            break
        }
        'openclaw-sessions;help;reclaim' {
            break
        }
        'openclaw-sessions;help;backup' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Snapshot agent databases (default agent, --agent, --all-agents) or the global one')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Snapshots in a repository, newest first')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check snapshots: files, manifest, sha256, integrity, owner, schema version')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Restore a snapshot to a fresh path, or in place under custody')
            break
        }
        'openclaw-sessions;help;backup;create' {
            break
        }
        'openclaw-sessions;help;backup;list' {
            break
        }
        'openclaw-sessions;help;backup;verify' {
            break
        }
        'openclaw-sessions;help;backup;restore' {
            break
        }
        'openclaw-sessions;help;doctor' {
            break
        }
        'openclaw-sessions;help;migrate' {
            [CompletionResult]::new('legacy', 'legacy', [CompletionResultType]::ParameterValue, 'Import a legacy sessions.json and its JSONL transcripts into the agent database, as `openclaw doctor --session-sqlite import` does, then archive the sources')
            [CompletionResult]::new('acpx', 'acpx', [CompletionResultType]::ParameterValue, 'Move the ACPX plugin''s state from <workspace>/state to <state>/acpx')
            break
        }
        'openclaw-sessions;help;migrate;legacy' {
            break
        }
        'openclaw-sessions;help;migrate;acpx' {
            break
        }
        'openclaw-sessions;help;du' {
            break
        }
        'openclaw-sessions;help;marker' {
            [CompletionResult]::new('format', 'format', [CompletionResultType]::ParameterValue, 'Print `sqlite:<agentId>:<sessionId>:<absolute store path>` for a session')
            [CompletionResult]::new('parse', 'parse', [CompletionResultType]::ParameterValue, 'Split a marker into its parts')
            break
        }
        'openclaw-sessions;help;marker;format' {
            break
        }
        'openclaw-sessions;help;marker;parse' {
            break
        }
        'openclaw-sessions;help;custody' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Who owns the state dir, which locks exist, and what a mutation would do')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Hold offline custody while CMD runs; exit with its code')
            [CompletionResult]::new('clear-stale', 'clear-stale', [CompletionResultType]::ParameterValue, 'Remove stale lock files (dead owners); never a live one')
            break
        }
        'openclaw-sessions;help;custody;status' {
            break
        }
        'openclaw-sessions;help;custody;run' {
            break
        }
        'openclaw-sessions;help;custody;clear-stale' {
            break
        }
        'openclaw-sessions;help;completions' {
            break
        }
        'openclaw-sessions;help;man' {
            break
        }
        'openclaw-sessions;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
