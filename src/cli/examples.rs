//! A few real examples per command, shown at the end of its `--help` and in its man page.
//! Kept apart from the argument definitions so that a new command only adds a row here.

/// (command path, example lines). Each line: the command, two spaces, what it does.
const EXAMPLES: &[(&str, &[&str])] = &[
    (
        "",
        &[
            "openclaw-sessions status",
            "openclaw-sessions --all-agents list --kind cron",
            "openclaw-sessions --state-dir /srv/openclaw/.openclaw doctor --json",
        ],
    ),
    (
        "status",
        &[
            "openclaw-sessions status",
            "openclaw-sessions --profile work status --json",
        ],
    ),
    (
        "list",
        &[
            "openclaw-sessions list",
            "openclaw-sessions --all-agents list --kind cron --updated-before 30d",
            "openclaw-sessions list --match invoice --limit all --json",
        ],
    ),
    (
        "show",
        &[
            "openclaw-sessions show main",
            "openclaw-sessions --agent work show telegram:direct:123458",
            "openclaw-sessions show 9ac0b152 --json",
        ],
    ),
    ("transcript", &["openclaw-sessions transcript cat main --visible"]),
    (
        "transcript cat",
        &[
            "openclaw-sessions transcript cat main",
            "openclaw-sessions transcript cat main --visible --from-seq 10 --limit 20",
        ],
    ),
    (
        "transcript delta",
        &[
            "openclaw-sessions transcript delta main --max-events 100 --json",
            "openclaw-sessions transcript delta main --cursor CURSOR --json",
        ],
    ),
    (
        "transcript catalog",
        &[
            "openclaw-sessions transcript catalog main --limit 20",
            "openclaw-sessions transcript catalog main --cursor CURSOR --json",
        ],
    ),
    (
        "transcript export",
        &[
            "openclaw-sessions transcript export main --format markdown",
            "openclaw-sessions transcript export main --format jsonl --output main.jsonl",
        ],
    ),
    (
        "patch",
        &[
            "openclaw-sessions patch main --set 'label=\"Support\"'",
            "openclaw-sessions patch agent:work:scratch-1 --unset model --dry-run",
            "openclaw-sessions patch main --merge '{\"thinkingLevel\":\"high\"}' --preserve-activity",
        ],
    ),
    (
        "archive",
        &[
            "openclaw-sessions archive agent:main:scratch-1",
            "openclaw-sessions --agent work archive scratch-1 scratch-2 --dry-run",
        ],
    ),
    (
        "unarchive",
        &["openclaw-sessions unarchive agent:main:scratch-1"],
    ),
    (
        "delete",
        &[
            "openclaw-sessions delete agent:main:cron:nightly:run:884 --dry-run",
            "openclaw-sessions delete agent:main:scratch-1 --backup-dir ~/openclaw-snapshots --yes",
        ],
    ),
    (
        "prune",
        &[
            "openclaw-sessions prune --all-agents --dry-run",
            "openclaw-sessions prune --all-agents --older-than 2w --artifacts --yes --wait 600",
        ],
    ),
    (
        "backup",
        &["openclaw-sessions --all-agents backup create --verify"],
    ),
    (
        "backup create",
        &[
            "openclaw-sessions --all-agents backup create --verify",
            "openclaw-sessions backup create --global --repository ~/openclaw-snapshots",
        ],
    ),
    (
        "backup list",
        &[
            "openclaw-sessions backup list",
            "openclaw-sessions backup list --repository ~/openclaw-snapshots",
        ],
    ),
    (
        "backup verify",
        &[
            "openclaw-sessions backup verify",
            "openclaw-sessions backup verify ~/openclaw-snapshots/*/",
        ],
    ),
    (
        "backup prune",
        &[
            "openclaw-sessions backup prune --keep 3 --dry-run",
            "openclaw-sessions backup prune --keep 3 --yes",
        ],
    ),
    (
        "backup restore",
        &[
            "openclaw-sessions backup restore SNAPSHOT --target /tmp/restored.sqlite",
            "openclaw-sessions backup restore SNAPSHOT --in-place --dry-run",
            "openclaw-sessions backup restore SNAPSHOT --session telegram:direct:123458",
        ],
    ),
    (
        "bundle",
        &["openclaw-sessions --agent research bundle export notes.bundle pinned-notes"],
    ),
    (
        "bundle export",
        &[
            "openclaw-sessions --agent research bundle export notes.bundle pinned-notes",
            "openclaw-sessions bundle export - main telegram:direct:123458 > two.bundle",
        ],
    ),
    (
        "bundle import",
        &[
            "openclaw-sessions --agent work bundle import notes.bundle --dry-run",
            "openclaw-sessions --agent work bundle import notes.bundle --as notes --yes",
            "openclaw-sessions bundle import notes.bundle --new-ids --as copy --yes",
        ],
    ),
    (
        "archives",
        &["openclaw-sessions --all-agents archives list --reason deleted"],
    ),
    (
        "archives list",
        &[
            "openclaw-sessions --all-agents archives list",
            "openclaw-sessions archives list --session telegram:direct:123458 --json",
        ],
    ),
    (
        "archives cat",
        &[
            "openclaw-sessions archives cat SESSION_ID",
            "openclaw-sessions archives cat SESSION_ID.jsonl.deleted.STAMP.GENERATION.zst --limit 20",
        ],
    ),
    (
        "archives export",
        &["openclaw-sessions archives export SESSION_ID --format markdown -o chat.md"],
    ),
    (
        "search",
        &[
            "openclaw-sessions --all-agents search invoice",
            "openclaw-sessions search '\"quarterly report\"' --archived --since 30d --json",
            "openclaw-sessions search 'deploy*' --role user --limit 10",
        ],
    ),
    (
        "undelete",
        &[
            "openclaw-sessions undelete SESSION_ID --dry-run",
            "openclaw-sessions undelete SESSION_ID --as restored:chat --snapshots ~/openclaw-snapshots",
        ],
    ),
    (
        "log",
        &[
            "openclaw-sessions log",
            "openclaw-sessions log --command delete --since 7d",
            "openclaw-sessions log --key pinned-notes --outcome interrupted --json",
        ],
    ),
    ("log show", &["openclaw-sessions log show 1a249ba7fe"]),
    (
        "undo",
        &[
            "openclaw-sessions undo --dry-run",
            "openclaw-sessions undo 1a249ba7fe --yes",
        ],
    ),
    (
        "reclaim",
        &[
            "openclaw-sessions --all-agents reclaim --dry-run",
            "openclaw-sessions --all-agents reclaim --wait 600",
        ],
    ),
    (
        "compact",
        &[
            "openclaw-sessions --all-agents compact --dry-run",
            "openclaw-sessions compact --min-bytes 256kb --older-than 7d --reclaim",
            "openclaw-sessions compact --restore agent:main:main",
        ],
    ),
    (
        "doctor",
        &[
            "openclaw-sessions --all-agents doctor",
            "openclaw-sessions doctor --list-checks",
            "openclaw-sessions doctor --fix --dry-run",
        ],
    ),
    (
        "migrate",
        &["openclaw-sessions migrate legacy --all-agents --dry-run"],
    ),
    (
        "migrate legacy",
        &[
            "openclaw-sessions migrate legacy --all-agents --dry-run",
            "openclaw-sessions migrate legacy --all-agents --yes",
        ],
    ),
    (
        "migrate acpx",
        &[
            "openclaw-sessions migrate acpx --dry-run",
            "openclaw-sessions migrate acpx --workspace ~/work --yes",
        ],
    ),
    (
        "migrate schema",
        &[
            "openclaw-sessions migrate schema --all-agents --dry-run",
            "openclaw-sessions migrate schema --all-agents --yes",
        ],
    ),
    (
        "du",
        &[
            "openclaw-sessions --all-agents du",
            "openclaw-sessions du --sessions --limit 10",
            "openclaw-sessions du --content agent:main:main",
            "openclaw-sessions du --database --json",
        ],
    ),
    (
        "secrets",
        &["openclaw-sessions secrets scan || echo 'secrets stored in conversations'"],
    ),
    (
        "secrets scan",
        &[
            "openclaw-sessions secrets scan",
            "openclaw-sessions secrets scan --value-from old-tokens.txt --json",
            "openclaw-sessions secrets scan --value-from revoked.txt --rule none",
        ],
    ),
    (
        "secrets scrub",
        &[
            "openclaw-sessions secrets scrub --fingerprint 3f9a2c1d -n",
            "openclaw-sessions secrets scrub --value-from revoked.txt --yes",
            "openclaw-sessions secrets scrub --rule aws-access-token --remove-snapshots",
        ],
    ),
    (
        "marker",
        &["openclaw-sessions marker parse 'sqlite:main:SESSION_ID:/srv/oc/agents/main/agent/openclaw-agent.sqlite'"],
    ),
    (
        "marker format",
        &["openclaw-sessions marker format --agent main --session-id SESSION_ID"],
    ),
    (
        "marker parse",
        &["openclaw-sessions marker parse 'sqlite:main:SESSION_ID:/srv/oc/agents/main/agent/openclaw-agent.sqlite'"],
    ),
    ("custody", &["openclaw-sessions custody status"]),
    ("custody status", &["openclaw-sessions custody status --json"]),
    (
        "custody run",
        &[
            "openclaw-sessions custody run --wait 600 -- sqlite3 agents/main/agent/openclaw-agent.sqlite .dump",
        ],
    ),
    (
        "custody clear-stale",
        &[
            "openclaw-sessions custody clear-stale --dry-run",
            "openclaw-sessions custody clear-stale",
        ],
    ),
    (
        "completions",
        &[
            "source <(openclaw-sessions completions bash)",
            "openclaw-sessions completions fish > ~/.config/fish/completions/openclaw-sessions.fish",
        ],
    ),
    (
        "man",
        &[
            "openclaw-sessions man | man -l -",
            "openclaw-sessions man --out-dir ~/.local/share/man/man1",
        ],
    ),
];

/// The examples of the command at `path` ("" for the tool itself).
pub fn of(path: &str) -> Option<&'static [&'static str]> {
    EXAMPLES.iter().find(|(p, _)| *p == path).map(|(_, e)| *e)
}

/// The widest an example line may be, so that `--help` (which indents it by 2) fits 80
/// columns without the terminal or clap breaking a command in the middle.
pub const WIDTH: usize = 78;

/// One example as shell lines of at most `width` characters: words (a quoted one is one word)
/// moved to continuation lines that the one before ends with ` \`, indented by 4. A single
/// word wider than that stays whole on its line.
pub fn wrapped(line: &str, width: usize) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => {
                quote = None;
                cur.push(c);
            }
            (None, '\'' | '"') => {
                quote = Some(c);
                cur.push(c);
            }
            (None, ' ') => {
                if !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                }
            }
            (_, c) => cur.push(c),
        }
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in words {
        if current.is_empty() {
            current = if out.is_empty() {
                word
            } else {
                format!("    {word}")
            };
        } else if current.chars().count() + 1 + word.chars().count() + 2 <= width {
            current.push(' ');
            current.push_str(&word);
        } else {
            current.push_str(" \\");
            out.push(std::mem::replace(&mut current, format!("    {word}")));
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// The examples as a help section.
pub fn section(lines: &[&str]) -> String {
    let mut out = String::from("Examples:\n");
    for l in lines {
        for part in wrapped(l, WIDTH) {
            out.push_str("  ");
            out.push_str(&part);
            out.push('\n');
        }
    }
    out.trim_end().to_string()
}

/// `cmd` and its subcommands with their examples at the end of the long help (`--help`,
/// man pages), after what `after_help` already says.
pub fn attach(cmd: clap::Command) -> clap::Command {
    attach_at(cmd, "")
}

fn attach_at(mut cmd: clap::Command, path: &str) -> clap::Command {
    if let Some(lines) = of(path) {
        let mut text = String::new();
        if let Some(after) = cmd.get_after_long_help().or(cmd.get_after_help()) {
            text.push_str(&after.to_string());
            text.push_str("\n\n");
        }
        text.push_str(&section(lines));
        cmd = cmd.after_long_help(text);
    }
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        let sub_path = if path.is_empty() {
            name.clone()
        } else {
            format!("{path} {name}")
        };
        cmd = cmd.mut_subcommand(&name, |sub| attach_at(sub, &sub_path));
    }
    cmd
}
