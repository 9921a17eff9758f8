# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_openclaw_sessions_global_optspecs
    string join \n state-dir= profile= config= agent= all-agents store= json q/quiet v/verbose color= no-progress y/yes h/help V/version
end

function __fish_openclaw_sessions_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_openclaw_sessions_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_openclaw_sessions_using_subcommand
    set -l cmd (__fish_openclaw_sessions_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -s V -l version -d 'Print version'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -f -a "status" -d 'State dir, config, agents, databases, sizes, pending migrations and custody'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -f -a "list" -d 'One row per session, with filters and sorting'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -f -a "ls" -d 'One row per session, with filters and sorting'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -f -a "show" -d 'One session in full: entry, promoted columns, transcript windows, archives'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -f -a "transcript" -d 'Read transcripts: cat, delta pages, text catalog, export'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -f -a "patch" -d 'Change an entry and its projected columns, as OpenClaw\'s entry writer would'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -f -a "archive" -d 'Set archivedAt/archiveReason on sessions, as `openclaw sessions archive` does'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -f -a "unarchive" -d 'Clear archivedAt/archivedBy/archiveReason'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -f -a "delete" -d 'Delete sessions as OpenClaw\'s deleteSessionEntry does, archiving their transcripts'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -f -a "prune" -d 'The maintenance pass for cron: archive or delete what OpenClaw\'s maintenance would'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -f -a "reclaim" -d 'Give agent databases\' free pages back to the file system (VACUUM or incremental vacuum)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -f -a "backup" -d 'Snapshots in OpenClaw\'s format: create, list, verify, restore'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -f -a "doctor" -d 'Find what breaks stores; --fix applies the safe repairs'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -f -a "migrate" -d 'Migrate old layouts: a legacy file store into SQLite, ACPX state adoption'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -f -a "du" -d 'Disk use per agent against the maintenance budget'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -f -a "marker" -d 'Format or parse the SQLite session file marker'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -f -a "custody" -d 'Offline custody of the state dir: status, run a command under it, clear stale locks'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -f -a "man" -d 'Write man pages'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand status" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand status" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand status" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand status" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand status" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand status" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand status" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand status" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand status" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand status" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand status" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand status" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand status" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -l active -d 'Only sessions updated within the last MINUTES' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -l kind -d 'Only sessions of this kind (repeatable)' -r -f -a "main\t''
direct\t''
group\t''
channel\t''
thread\t''
subagent\t''
cron\t''
hook\t''
acp\t''
dashboard\t''
explicit\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -l match -d 'Only sessions whose key, label or display name contains TEXT (case-insensitive)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -l updated-before -d 'Only sessions updated before TIME (epoch ms, ISO-8601, or an age like 7d)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -l updated-after -d 'Only sessions updated after TIME' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -l limit -d 'At most N rows, or `all`' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -l sort -d 'Newest first by this field' -r -f -a "updated\t''
created\t''
events\t''
bytes\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -l archived -d 'Only archived sessions'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -l no-archived -d 'Leave archived sessions out'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -l bytes -d 'Include transcript bytes in --json output (reads every listed transcript; the table always shows them for its rows)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand list" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -l active -d 'Only sessions updated within the last MINUTES' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -l kind -d 'Only sessions of this kind (repeatable)' -r -f -a "main\t''
direct\t''
group\t''
channel\t''
thread\t''
subagent\t''
cron\t''
hook\t''
acp\t''
dashboard\t''
explicit\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -l match -d 'Only sessions whose key, label or display name contains TEXT (case-insensitive)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -l updated-before -d 'Only sessions updated before TIME (epoch ms, ISO-8601, or an age like 7d)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -l updated-after -d 'Only sessions updated after TIME' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -l limit -d 'At most N rows, or `all`' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -l sort -d 'Newest first by this field' -r -f -a "updated\t''
created\t''
events\t''
bytes\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -l archived -d 'Only archived sessions'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -l no-archived -d 'Leave archived sessions out'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -l bytes -d 'Include transcript bytes in --json output (reads every listed transcript; the table always shows them for its rows)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand ls" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand show" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand show" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand show" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand show" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand show" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand show" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand show" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand show" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand show" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand show" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand show" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand show" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand show" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and not __fish_seen_subcommand_from cat delta catalog export help" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and not __fish_seen_subcommand_from cat delta catalog export help" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and not __fish_seen_subcommand_from cat delta catalog export help" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and not __fish_seen_subcommand_from cat delta catalog export help" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and not __fish_seen_subcommand_from cat delta catalog export help" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and not __fish_seen_subcommand_from cat delta catalog export help" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and not __fish_seen_subcommand_from cat delta catalog export help" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and not __fish_seen_subcommand_from cat delta catalog export help" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and not __fish_seen_subcommand_from cat delta catalog export help" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and not __fish_seen_subcommand_from cat delta catalog export help" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and not __fish_seen_subcommand_from cat delta catalog export help" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and not __fish_seen_subcommand_from cat delta catalog export help" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and not __fish_seen_subcommand_from cat delta catalog export help" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and not __fish_seen_subcommand_from cat delta catalog export help" -f -a "cat" -d 'Print events as JSON Lines, each line the stored event JSON byte for byte'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and not __fish_seen_subcommand_from cat delta catalog export help" -f -a "delta" -d 'One bounded page of events with an opaque cursor'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and not __fish_seen_subcommand_from cat delta catalog export help" -f -a "catalog" -d 'Newest-first pages of user and assistant text'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and not __fish_seen_subcommand_from cat delta catalog export help" -f -a "export" -d 'Write the transcript as legacy JSONL (re-importable) or Markdown'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and not __fish_seen_subcommand_from cat delta catalog export help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from cat" -l window -d 'Read this transcript generation of the session instead of the current one' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from cat" -l from-seq -d 'Start at this sequence number' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from cat" -l limit -d 'At most N events' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from cat" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from cat" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from cat" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from cat" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from cat" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from cat" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from cat" -l visible -d 'Only the active branch\'s user and assistant messages and tool results'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from cat" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from cat" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from cat" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from cat" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from cat" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from cat" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from cat" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from delta" -l cursor -d 'Continue after the page this cursor came from' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from delta" -l max-events -d 'Events per page (1..=10000, default 1000)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from delta" -l max-bytes -d 'Serialized bytes per page (1..=67108864, default 1000000)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from delta" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from delta" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from delta" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from delta" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from delta" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from delta" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from delta" -l visible -d 'Active-branch messages instead of raw events'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from delta" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from delta" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from delta" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from delta" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from delta" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from delta" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from delta" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from catalog" -l cursor -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from catalog" -l limit -d 'Items per page (1..=200, default 50)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from catalog" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from catalog" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from catalog" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from catalog" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from catalog" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from catalog" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from catalog" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from catalog" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from catalog" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from catalog" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from catalog" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from catalog" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from catalog" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from export" -l format -r -f -a "jsonl\t''
markdown\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from export" -s o -l output -d 'Write to FILE (created 0600, never overwritten) instead of stdout' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from export" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from export" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from export" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from export" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from export" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from export" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from export" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from export" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from export" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from export" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from export" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from export" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from export" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from help" -f -a "cat" -d 'Print events as JSON Lines, each line the stored event JSON byte for byte'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from help" -f -a "delta" -d 'One bounded page of events with an opaque cursor'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from help" -f -a "catalog" -d 'Newest-first pages of user and assistant text'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from help" -f -a "export" -d 'Write the transcript as legacy JSONL (re-importable) or Markdown'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand transcript; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -l set -d 'Set a field to a JSON value (a bare word is taken as a string): `--set label=\'"Ops"\'`' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -l unset -d 'Remove a field' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -l merge -d 'Shallow-merge a JSON object into the entry' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -l replace-entry -d 'Replace the whole entry with the JSON object in FILE (`-` for stdin)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -l expect-updated-at -d 'Refuse unless updatedAt is exactly MS' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -l expect-session-id -d 'Refuse unless the session id is ID (`null`: expect none)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -l wait -d 'Wait up to SECONDS for a live owner of the state dir to finish' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -l backup-dir -d 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -l preserve-activity -d 'Keep updatedAt (otherwise it becomes now)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -s n -l dry-run -d 'Show the plan and change nothing'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand patch" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand archive" -l wait -d 'Wait up to SECONDS for a live owner of the state dir to finish' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand archive" -l backup-dir -d 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand archive" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand archive" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand archive" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand archive" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand archive" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand archive" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand archive" -s n -l dry-run -d 'Show the plan and change nothing'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand archive" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand archive" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand archive" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand archive" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand archive" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand archive" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand archive" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand unarchive" -l wait -d 'Wait up to SECONDS for a live owner of the state dir to finish' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand unarchive" -l backup-dir -d 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand unarchive" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand unarchive" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand unarchive" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand unarchive" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand unarchive" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand unarchive" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand unarchive" -s n -l dry-run -d 'Show the plan and change nothing'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand unarchive" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand unarchive" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand unarchive" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand unarchive" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand unarchive" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand unarchive" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand unarchive" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand delete" -l expect-session-id -d 'Refuse keys whose session id is not ID (`null`: expect none)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand delete" -l expect-updated-at -d 'Refuse keys whose updatedAt is not MS' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand delete" -l wait -d 'Wait up to SECONDS for a live owner of the state dir to finish' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand delete" -l backup-dir -d 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand delete" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand delete" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand delete" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand delete" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand delete" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand delete" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand delete" -l no-archive -d 'Keep the transcripts (the node becomes a tombstone) instead of archiving them'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand delete" -s n -l dry-run -d 'Show the plan and change nothing'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand delete" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand delete" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand delete" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand delete" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand delete" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand delete" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand delete" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -l older-than -d 'Archive (or remove, for machine-made sessions) what was not updated for this long (default: session.maintenance.pruneAfter, 30d)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -l max-entries -d 'Keep at most N unarchived sessions per agent (default: maxEntries, 5000)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -l max-disk-bytes -d 'Disk budget per agent (default: maxDiskBytes, 10gb; reported)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -l active-key -d 'Never touch this session (as OpenClaw\'s --active-key)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -l wait -d 'Wait up to SECONDS for a live owner of the state dir to finish' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -l backup-dir -d 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -l artifacts -d 'Also remove archive files past resetArchiveRetention (unreferenced transcripts and temp files are handled on every run, as OpenClaw\'s cleanup does)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -l enforce -d 'Apply even when session.maintenance.mode is warn (as OpenClaw\'s --enforce)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -l fix-missing -d 'First remove sessions whose transcripts hold no message (as OpenClaw\'s --fix-missing); a transcript with a row that cannot be read is kept, and what is removed is archived'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -l fix-dm-scope -d 'First remove direct-message sessions left from before session.dmScope main (as OpenClaw\'s --fix-dm-scope; only when dmScope is main)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -l reclaim -d 'Then give the databases\' free pages back to the file system (as `reclaim` does)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -s n -l dry-run -d 'Show the plan and change nothing'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand prune" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand reclaim" -l wait -d 'Wait up to SECONDS for a live owner of the state dir to finish' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand reclaim" -l backup-dir -d 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand reclaim" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand reclaim" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand reclaim" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand reclaim" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand reclaim" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand reclaim" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand reclaim" -s n -l dry-run -d 'Show the plan and change nothing'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand reclaim" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand reclaim" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand reclaim" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand reclaim" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand reclaim" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand reclaim" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand reclaim" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and not __fish_seen_subcommand_from create list verify restore help" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and not __fish_seen_subcommand_from create list verify restore help" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and not __fish_seen_subcommand_from create list verify restore help" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and not __fish_seen_subcommand_from create list verify restore help" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and not __fish_seen_subcommand_from create list verify restore help" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and not __fish_seen_subcommand_from create list verify restore help" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and not __fish_seen_subcommand_from create list verify restore help" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and not __fish_seen_subcommand_from create list verify restore help" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and not __fish_seen_subcommand_from create list verify restore help" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and not __fish_seen_subcommand_from create list verify restore help" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and not __fish_seen_subcommand_from create list verify restore help" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and not __fish_seen_subcommand_from create list verify restore help" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and not __fish_seen_subcommand_from create list verify restore help" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and not __fish_seen_subcommand_from create list verify restore help" -f -a "create" -d 'Snapshot agent databases (default agent, --agent, --all-agents) or the global one'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and not __fish_seen_subcommand_from create list verify restore help" -f -a "list" -d 'Snapshots in a repository, newest first'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and not __fish_seen_subcommand_from create list verify restore help" -f -a "verify" -d 'Check snapshots: files, manifest, sha256, integrity, owner, schema version'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and not __fish_seen_subcommand_from create list verify restore help" -f -a "restore" -d 'Restore a snapshot to a fresh path, or in place under custody'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and not __fish_seen_subcommand_from create list verify restore help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from create" -l repository -d 'The snapshot repository (created 0700 if missing)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from create" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from create" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from create" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from create" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from create" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from create" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from create" -l global -d 'Snapshot the global state database instead of agent databases'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from create" -l verify -d 'Verify each snapshot again after publication'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from create" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from create" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from create" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from create" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from create" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from create" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from list" -l repository -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from list" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from list" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from list" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from list" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from list" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from list" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from list" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from list" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from list" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from list" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from verify" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from verify" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from verify" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from verify" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from verify" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from verify" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from verify" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from verify" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from verify" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from verify" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from verify" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from verify" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from verify" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from restore" -l target -d 'Write the database to this fresh path (never over an existing file)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from restore" -l wait -d 'Wait up to SECONDS for a live owner of the state dir to finish (--in-place)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from restore" -l backup-dir -d 'With --in-place: where the snapshot of the current database goes (default: the repository of SNAPSHOT)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from restore" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from restore" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from restore" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from restore" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from restore" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from restore" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from restore" -l in-place -d 'Replace the live database (custody; the current one is snapshotted first)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from restore" -s n -l dry-run -d 'With --in-place: show what would be replaced and change nothing'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from restore" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from restore" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from restore" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from restore" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from restore" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from restore" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from restore" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from help" -f -a "create" -d 'Snapshot agent databases (default agent, --agent, --all-agents) or the global one'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from help" -f -a "list" -d 'Snapshots in a repository, newest first'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from help" -f -a "verify" -d 'Check snapshots: files, manifest, sha256, integrity, owner, schema version'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from help" -f -a "restore" -d 'Restore a snapshot to a fresh path, or in place under custody'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand backup; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand doctor" -l backup-dir -d 'Where --fix writes its snapshots (default: <state>/openclaw-sessions-snapshots)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand doctor" -l wait -d 'Wait up to SECONDS for a live owner of the state dir to finish (--fix)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand doctor" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand doctor" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand doctor" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand doctor" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand doctor" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand doctor" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand doctor" -l fix -d 'Apply the safe repairs (custody; a verified snapshot of each changed database first)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand doctor" -s n -l dry-run -d 'With --fix: show the repairs and change nothing'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand doctor" -l full -d 'Full integrity_check instead of quick_check'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand doctor" -l list-checks -d 'List the checks and exit'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand doctor" -l strict -d 'Warnings also make the exit code 3'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand doctor" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand doctor" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand doctor" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand doctor" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand doctor" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand doctor" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand doctor" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and not __fish_seen_subcommand_from legacy acpx help" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and not __fish_seen_subcommand_from legacy acpx help" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and not __fish_seen_subcommand_from legacy acpx help" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and not __fish_seen_subcommand_from legacy acpx help" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and not __fish_seen_subcommand_from legacy acpx help" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and not __fish_seen_subcommand_from legacy acpx help" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and not __fish_seen_subcommand_from legacy acpx help" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and not __fish_seen_subcommand_from legacy acpx help" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and not __fish_seen_subcommand_from legacy acpx help" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and not __fish_seen_subcommand_from legacy acpx help" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and not __fish_seen_subcommand_from legacy acpx help" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and not __fish_seen_subcommand_from legacy acpx help" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and not __fish_seen_subcommand_from legacy acpx help" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and not __fish_seen_subcommand_from legacy acpx help" -f -a "legacy" -d 'Import a legacy sessions.json and its JSONL transcripts into the agent database, as `openclaw doctor --session-sqlite import` does, then archive the sources'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and not __fish_seen_subcommand_from legacy acpx help" -f -a "acpx" -d 'Move the ACPX plugin\'s state from <workspace>/state to <state>/acpx'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and not __fish_seen_subcommand_from legacy acpx help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from legacy" -l wait -d 'Wait up to SECONDS for a live owner of the state dir to finish' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from legacy" -l backup-dir -d 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from legacy" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from legacy" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from legacy" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from legacy" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from legacy" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from legacy" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from legacy" -s n -l dry-run -d 'Show the plan and change nothing'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from legacy" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from legacy" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from legacy" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from legacy" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from legacy" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from legacy" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from legacy" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from acpx" -l workspace -d 'The agent workspace holding `state/` (default: from the config, else <state>/workspace)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from acpx" -l wait -d 'Wait up to SECONDS for a live owner of the state dir to finish' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from acpx" -l backup-dir -d 'Write the verified snapshots of the databases the change writes into DIR (see the snapshot policy below)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from acpx" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from acpx" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from acpx" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from acpx" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from acpx" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from acpx" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from acpx" -s n -l dry-run -d 'Show the plan and change nothing'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from acpx" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from acpx" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from acpx" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from acpx" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from acpx" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from acpx" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from acpx" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from help" -f -a "legacy" -d 'Import a legacy sessions.json and its JSONL transcripts into the agent database, as `openclaw doctor --session-sqlite import` does, then archive the sources'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from help" -f -a "acpx" -d 'Move the ACPX plugin\'s state from <workspace>/state to <state>/acpx'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand migrate; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand du" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand du" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand du" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand du" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand du" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand du" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand du" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand du" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand du" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand du" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand du" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand du" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand du" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and not __fish_seen_subcommand_from format parse help" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and not __fish_seen_subcommand_from format parse help" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and not __fish_seen_subcommand_from format parse help" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and not __fish_seen_subcommand_from format parse help" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and not __fish_seen_subcommand_from format parse help" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and not __fish_seen_subcommand_from format parse help" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and not __fish_seen_subcommand_from format parse help" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and not __fish_seen_subcommand_from format parse help" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and not __fish_seen_subcommand_from format parse help" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and not __fish_seen_subcommand_from format parse help" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and not __fish_seen_subcommand_from format parse help" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and not __fish_seen_subcommand_from format parse help" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and not __fish_seen_subcommand_from format parse help" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and not __fish_seen_subcommand_from format parse help" -f -a "format" -d 'Print `sqlite:<agentId>:<sessionId>:<absolute store path>` for a session'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and not __fish_seen_subcommand_from format parse help" -f -a "parse" -d 'Split a marker into its parts'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and not __fish_seen_subcommand_from format parse help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from format" -l session-id -d 'The session id' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from format" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from format" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from format" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from format" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from format" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from format" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from format" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from format" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from format" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from format" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from format" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from format" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from format" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from parse" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from parse" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from parse" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from parse" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from parse" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from parse" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from parse" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from parse" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from parse" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from parse" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from parse" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from parse" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from parse" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from help" -f -a "format" -d 'Print `sqlite:<agentId>:<sessionId>:<absolute store path>` for a session'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from help" -f -a "parse" -d 'Split a marker into its parts'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand marker; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and not __fish_seen_subcommand_from status run clear-stale help" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and not __fish_seen_subcommand_from status run clear-stale help" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and not __fish_seen_subcommand_from status run clear-stale help" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and not __fish_seen_subcommand_from status run clear-stale help" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and not __fish_seen_subcommand_from status run clear-stale help" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and not __fish_seen_subcommand_from status run clear-stale help" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and not __fish_seen_subcommand_from status run clear-stale help" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and not __fish_seen_subcommand_from status run clear-stale help" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and not __fish_seen_subcommand_from status run clear-stale help" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and not __fish_seen_subcommand_from status run clear-stale help" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and not __fish_seen_subcommand_from status run clear-stale help" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and not __fish_seen_subcommand_from status run clear-stale help" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and not __fish_seen_subcommand_from status run clear-stale help" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and not __fish_seen_subcommand_from status run clear-stale help" -f -a "status" -d 'Who owns the state dir, which locks exist, and what a mutation would do'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and not __fish_seen_subcommand_from status run clear-stale help" -f -a "run" -d 'Hold offline custody while CMD runs; exit with its code'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and not __fish_seen_subcommand_from status run clear-stale help" -f -a "clear-stale" -d 'Remove stale lock files (dead owners); never a live one'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and not __fish_seen_subcommand_from status run clear-stale help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from status" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from status" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from status" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from status" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from status" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from status" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from status" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from status" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from status" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from status" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from status" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from run" -l wait -d 'Keep retrying up to SECONDS while a live owner holds the state dir' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from run" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from run" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from run" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from run" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from run" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from run" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from run" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from run" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from run" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from run" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from run" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from run" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from run" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from clear-stale" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from clear-stale" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from clear-stale" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from clear-stale" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from clear-stale" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from clear-stale" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from clear-stale" -s n -l dry-run -d 'Name the stale locks and remove nothing (read without taking any lock)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from clear-stale" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from clear-stale" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from clear-stale" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from clear-stale" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from clear-stale" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from clear-stale" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from clear-stale" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from help" -f -a "status" -d 'Who owns the state dir, which locks exist, and what a mutation would do'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from help" -f -a "run" -d 'Hold offline custody while CMD runs; exit with its code'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from help" -f -a "clear-stale" -d 'Remove stale lock files (dead owners); never a live one'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand custody; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand completions" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand completions" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand completions" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand completions" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand completions" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand completions" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand completions" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand completions" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand completions" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand completions" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand completions" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand completions" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand completions" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand man" -l out-dir -d 'Write one page per command into DIR (openclaw-sessions.1, openclaw-sessions-list.1, ...); without it the main page goes to stdout' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand man" -l state-dir -d 'OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile\'s, or ~/.openclaw)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand man" -l profile -d 'Use ~/.openclaw-NAME (`default` means ~/.openclaw)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand man" -l config -d 'Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json)' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand man" -l agent -d 'Work on this agent (repeatable)' -r
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand man" -l store -d 'One database (or legacy sessions.json) named directly' -r -F
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand man" -l color -d 'Colors on stderr (NO_COLOR is respected)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand man" -l all-agents -d 'Work on every agent'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand man" -l json -d 'Print one JSON document on stdout'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand man" -s q -l quiet -d 'Only data and errors'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand man" -s v -l verbose -d 'More detail on stderr'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand man" -l no-progress -d 'Never draw progress bars'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand man" -s y -l yes -d 'Answer yes to confirmations'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand man" -s h -l help -d 'Print help'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and not __fish_seen_subcommand_from status list show transcript patch archive unarchive delete prune reclaim backup doctor migrate du marker custody completions man help" -f -a "status" -d 'State dir, config, agents, databases, sizes, pending migrations and custody'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and not __fish_seen_subcommand_from status list show transcript patch archive unarchive delete prune reclaim backup doctor migrate du marker custody completions man help" -f -a "list" -d 'One row per session, with filters and sorting'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and not __fish_seen_subcommand_from status list show transcript patch archive unarchive delete prune reclaim backup doctor migrate du marker custody completions man help" -f -a "show" -d 'One session in full: entry, promoted columns, transcript windows, archives'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and not __fish_seen_subcommand_from status list show transcript patch archive unarchive delete prune reclaim backup doctor migrate du marker custody completions man help" -f -a "transcript" -d 'Read transcripts: cat, delta pages, text catalog, export'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and not __fish_seen_subcommand_from status list show transcript patch archive unarchive delete prune reclaim backup doctor migrate du marker custody completions man help" -f -a "patch" -d 'Change an entry and its projected columns, as OpenClaw\'s entry writer would'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and not __fish_seen_subcommand_from status list show transcript patch archive unarchive delete prune reclaim backup doctor migrate du marker custody completions man help" -f -a "archive" -d 'Set archivedAt/archiveReason on sessions, as `openclaw sessions archive` does'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and not __fish_seen_subcommand_from status list show transcript patch archive unarchive delete prune reclaim backup doctor migrate du marker custody completions man help" -f -a "unarchive" -d 'Clear archivedAt/archivedBy/archiveReason'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and not __fish_seen_subcommand_from status list show transcript patch archive unarchive delete prune reclaim backup doctor migrate du marker custody completions man help" -f -a "delete" -d 'Delete sessions as OpenClaw\'s deleteSessionEntry does, archiving their transcripts'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and not __fish_seen_subcommand_from status list show transcript patch archive unarchive delete prune reclaim backup doctor migrate du marker custody completions man help" -f -a "prune" -d 'The maintenance pass for cron: archive or delete what OpenClaw\'s maintenance would'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and not __fish_seen_subcommand_from status list show transcript patch archive unarchive delete prune reclaim backup doctor migrate du marker custody completions man help" -f -a "reclaim" -d 'Give agent databases\' free pages back to the file system (VACUUM or incremental vacuum)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and not __fish_seen_subcommand_from status list show transcript patch archive unarchive delete prune reclaim backup doctor migrate du marker custody completions man help" -f -a "backup" -d 'Snapshots in OpenClaw\'s format: create, list, verify, restore'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and not __fish_seen_subcommand_from status list show transcript patch archive unarchive delete prune reclaim backup doctor migrate du marker custody completions man help" -f -a "doctor" -d 'Find what breaks stores; --fix applies the safe repairs'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and not __fish_seen_subcommand_from status list show transcript patch archive unarchive delete prune reclaim backup doctor migrate du marker custody completions man help" -f -a "migrate" -d 'Migrate old layouts: a legacy file store into SQLite, ACPX state adoption'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and not __fish_seen_subcommand_from status list show transcript patch archive unarchive delete prune reclaim backup doctor migrate du marker custody completions man help" -f -a "du" -d 'Disk use per agent against the maintenance budget'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and not __fish_seen_subcommand_from status list show transcript patch archive unarchive delete prune reclaim backup doctor migrate du marker custody completions man help" -f -a "marker" -d 'Format or parse the SQLite session file marker'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and not __fish_seen_subcommand_from status list show transcript patch archive unarchive delete prune reclaim backup doctor migrate du marker custody completions man help" -f -a "custody" -d 'Offline custody of the state dir: status, run a command under it, clear stale locks'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and not __fish_seen_subcommand_from status list show transcript patch archive unarchive delete prune reclaim backup doctor migrate du marker custody completions man help" -f -a "completions" -d 'Print a shell completion script'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and not __fish_seen_subcommand_from status list show transcript patch archive unarchive delete prune reclaim backup doctor migrate du marker custody completions man help" -f -a "man" -d 'Write man pages'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and not __fish_seen_subcommand_from status list show transcript patch archive unarchive delete prune reclaim backup doctor migrate du marker custody completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and __fish_seen_subcommand_from transcript" -f -a "cat" -d 'Print events as JSON Lines, each line the stored event JSON byte for byte'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and __fish_seen_subcommand_from transcript" -f -a "delta" -d 'One bounded page of events with an opaque cursor'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and __fish_seen_subcommand_from transcript" -f -a "catalog" -d 'Newest-first pages of user and assistant text'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and __fish_seen_subcommand_from transcript" -f -a "export" -d 'Write the transcript as legacy JSONL (re-importable) or Markdown'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and __fish_seen_subcommand_from backup" -f -a "create" -d 'Snapshot agent databases (default agent, --agent, --all-agents) or the global one'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and __fish_seen_subcommand_from backup" -f -a "list" -d 'Snapshots in a repository, newest first'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and __fish_seen_subcommand_from backup" -f -a "verify" -d 'Check snapshots: files, manifest, sha256, integrity, owner, schema version'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and __fish_seen_subcommand_from backup" -f -a "restore" -d 'Restore a snapshot to a fresh path, or in place under custody'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and __fish_seen_subcommand_from migrate" -f -a "legacy" -d 'Import a legacy sessions.json and its JSONL transcripts into the agent database, as `openclaw doctor --session-sqlite import` does, then archive the sources'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and __fish_seen_subcommand_from migrate" -f -a "acpx" -d 'Move the ACPX plugin\'s state from <workspace>/state to <state>/acpx'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and __fish_seen_subcommand_from marker" -f -a "format" -d 'Print `sqlite:<agentId>:<sessionId>:<absolute store path>` for a session'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and __fish_seen_subcommand_from marker" -f -a "parse" -d 'Split a marker into its parts'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and __fish_seen_subcommand_from custody" -f -a "status" -d 'Who owns the state dir, which locks exist, and what a mutation would do'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and __fish_seen_subcommand_from custody" -f -a "run" -d 'Hold offline custody while CMD runs; exit with its code'
complete -c openclaw-sessions -n "__fish_openclaw_sessions_using_subcommand help; and __fish_seen_subcommand_from custody" -f -a "clear-stale" -d 'Remove stale lock files (dead owners); never a live one'
