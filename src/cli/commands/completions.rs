//! Shell completion through clap_complete's dynamic engine: the shell asks the binary itself
//! (`COMPLETE=bash openclaw-sessions -- WORDS`), so subcommands, flags and flag values complete
//! at every level, and live values come from the store the command line points at: agent ids,
//! session keys (and `main`), doctor checks, snapshot directories. A lookup opens the store
//! read-only, exactly as the read commands do, prints nothing but candidates, and writes nothing.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use clap::Args;
use clap_complete::engine::{
    ArgValueCompleter, CompletionCandidate, PathCompleter, ValueCompleter,
};
use clap_complete::env::{EnvCompleter, Shells};
use clap_complete::Shell;

use openclaw_sessions::paths::{DiscoverOptions, Environment, StateLayout};
use openclaw_sessions::store::resolve::AgentSelection;
use openclaw_sessions::store::AgentStore;

use crate::cli::exit::Outcome;
use crate::cli::Ctx;

/// The variable the shell sets to ask for candidates.
const VAR: &str = "COMPLETE";
const BIN: &str = "openclaw-sessions";

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to print the registration script for: bash, zsh, fish, powershell or elvish.
    shell: Shell,
}

/// Bash with the words re-joined where bash split them at `:` or `=` (COMP_WORDBREAKS), so
/// that `show agent:main:<TAB>` completes whole session keys; clap's engine does the rest.
struct Bash;

impl EnvCompleter for Bash {
    fn name(&self) -> &'static str {
        "bash"
    }
    fn is(&self, name: &str) -> bool {
        name == "bash"
    }
    fn write_registration(
        &self,
        var: &str,
        _name: &str,
        bin: &str,
        completer: &str,
        buf: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let script = BASH_REGISTRATION
            .replace("@NAME@", &bin.replace('-', "_"))
            .replace("@VAR@", var)
            .replace("@BIN@", bin)
            .replace("@COMPLETER@", completer);
        buf.write_all(script.as_bytes())
    }
    fn write_complete(
        &self,
        cmd: &mut clap::Command,
        args: Vec<OsString>,
        current_dir: Option<&Path>,
        buf: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        clap_complete::env::Bash.write_complete(cmd, args, current_dir, buf)
    }
}

const BASH_REGISTRATION: &str = r#"# bash completion for @BIN@: source this file, or put it in
# ~/.local/share/bash-completion/completions/@BIN@
_@NAME@_complete() {
    local IFS=$'\013' line="${COMP_LINE:0:COMP_POINT}" pos=0 i gap rest trimmed
    local -a words=()
    # Re-join the words bash split at COMP_WORDBREAKS (`:` in session keys, `=`), as
    # bash-completion's `_get_comp_words_by_ref -n :=` does (this script needs no package).
    for ((i = 0; i <= COMP_CWORD; i++)); do
        rest="${line:pos}"
        trimmed="${rest#"${rest%%[![:space:]]*}"}"
        gap=$((${#rest} - ${#trimmed}))
        pos=$((pos + gap))
        if ((i > 0 && gap == 0)); then
            words[${#words[@]} - 1]+="${COMP_WORDS[i]}"
        else
            words+=("${COMP_WORDS[i]}")
        fi
        pos=$((pos + ${#COMP_WORDS[i]}))
    done
    local last=$((${#words[@]} - 1))
    local whole="${words[last]}" quote=""
    # A word opened with a quote: the binary gets it without the quote; bash completes the
    # text inside it (and closes the quote on a single match).
    if [[ "$whole" == [\'\"]* ]]; then
        quote="${whole:0:1}"
        whole="${whole:1}"
        words[last]="$whole"
    fi
    # Bash replaces only the text after the last word break (`$2`, empty right after a `:`):
    # the part of the whole word before it is dropped from each candidate, as
    # bash-completion's `__ltrim_colon_completions` does.
    local prefix="${whole%"${2-${COMP_WORDS[COMP_CWORD]}}"}"
    COMPREPLY=($(
        _CLAP_IFS="$IFS" \
        _CLAP_COMPLETE_INDEX="$last" \
        _CLAP_COMPLETE_COMP_TYPE="${COMP_TYPE:-9}" \
        @VAR@="bash" \
        "@COMPLETER@" -- "${words[@]}" 2>/dev/null
    ))
    if [[ $? != 0 ]]; then
        unset COMPREPLY
        return
    fi
    if [[ -n "$prefix" ]]; then
        COMPREPLY=("${COMPREPLY[@]#"$prefix"}")
    fi
    # Inserted as one shell word that runs nothing: a key may hold spaces, quotes, `$`,
    # backticks or newlines (keys come from channels and callers). Inside an opened quote,
    # only what that quote does not protect is escaped.
    local quoted
    for i in "${!COMPREPLY[@]}"; do
        case "$quote" in
        "'") quoted="${COMPREPLY[i]//\'/\'\\\'\'}" ;;
        '"')
            quoted="${COMPREPLY[i]//\\/\\\\}"
            quoted="${quoted//\"/\\\"}"
            quoted="${quoted//\$/\\\$}"
            quoted="${quoted//\`/\\\`}"
            ;;
        *) printf -v quoted '%q' "${COMPREPLY[i]}" ;;
        esac
        COMPREPLY[i]="$quoted"
    done
    # A space after a whole word; none after a candidate that goes on (`--flag=`, a
    # directory, `agent:main:`).
    if ((${#COMPREPLY[@]} == 1)) && [[ "${COMPREPLY[0]}" =~ [=/:]$ ]]; then
        compopt -o nospace 2>/dev/null
    fi
}
complete -o bashdefault -F _@NAME@_complete @BIN@
"#;

const fn shells() -> Shells<'static> {
    Shells(&[
        &Bash,
        &clap_complete::env::Zsh,
        &clap_complete::env::Fish,
        &clap_complete::env::Powershell,
        &clap_complete::env::Elvish,
    ])
}

/// Answer a completion request (`COMPLETE=SHELL` in the environment) and exit; otherwise
/// return and let the command line run.
pub fn answer_if_asked() {
    clap_complete::CompleteEnv::with_factory(command_with_completers)
        .var(VAR)
        .bin(BIN)
        .completer(BIN)
        .shells(shells())
        .complete();
}

/// The registration script `completions SHELL` prints: it calls `openclaw-sessions` on PATH.
pub fn registration(shell: Shell) -> anyhow::Result<String> {
    let name = shell.to_string();
    let all = shells();
    let completer = all
        .completer(&name)
        .ok_or_else(|| anyhow::anyhow!("no completion for {name}"))?;
    let mut buf = Vec::new();
    completer.write_registration(VAR, BIN, BIN, BIN, &mut buf)?;
    Ok(String::from_utf8(buf)?)
}

pub fn run(ctx: &Ctx, args: &CompletionsArgs) -> anyhow::Result<Outcome> {
    ctx.printer.out(&registration(args.shell)?)?;
    Ok(Outcome::Done)
}

/// The command line with live completers on the arguments that name things in the store,
/// chosen by what they are called, so that commands added later get them too: a
/// `KEY|SESSION_ID` or `KEY` value, `--agent`, doctor's `CHECK`, a `SNAPSHOT`.
pub fn command_with_completers() -> clap::Command {
    with_completers(crate::cli::command())
}

fn with_completers(mut cmd: clap::Command) -> clap::Command {
    let ids: Vec<(String, Option<String>)> = cmd
        .get_arguments()
        .map(|a| {
            (
                a.get_id().to_string(),
                // The name `--help` shows: the value name, else the id in capitals.
                a.get_value_names()
                    .and_then(|v| v.first())
                    .map(|n| n.to_string())
                    .or_else(|| Some(a.get_id().as_str().to_uppercase())),
            )
        })
        .collect();
    for (id, value_name) in ids {
        let completer = match (id.as_str(), value_name.as_deref()) {
            ("agents", _) => Some(ArgValueCompleter::new(agent_ids)),
            (_, Some("KEY|SESSION_ID" | "KEY")) => Some(ArgValueCompleter::new(session_keys)),
            (_, Some("CHECK")) => Some(ArgValueCompleter::new(check_names)),
            (_, Some("SNAPSHOT")) => Some(ArgValueCompleter::new(snapshots)),
            _ => None,
        };
        if let Some(c) = completer {
            cmd = cmd.mut_arg(&id, |a| a.add(c));
        }
    }
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        cmd = cmd.mut_subcommand(&name, with_completers);
    }
    cmd
}

/// What the command line being completed says about where the store is.
#[derive(Debug, Default, PartialEq)]
struct Pointed {
    state_dir: Option<PathBuf>,
    profile: Option<String>,
    config: Option<PathBuf>,
    store: Option<PathBuf>,
    agents: Vec<String>,
    all_agents: bool,
}

/// The global options among `words` (`--state-dir DIR` and `--state-dir=DIR` alike).
fn pointed(words: &[OsString]) -> Pointed {
    let mut p = Pointed::default();
    let mut it = words.iter().map(|w| w.to_string_lossy().into_owned());
    while let Some(word) = it.next() {
        if word == "--" {
            break;
        }
        let (flag, inline) = match word.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (word.clone(), None),
        };
        let mut value = || inline.clone().or_else(|| it.next());
        match flag.as_str() {
            "--state-dir" => p.state_dir = value().map(PathBuf::from),
            "--profile" => p.profile = value(),
            "--config" => p.config = value().map(PathBuf::from),
            "--store" => p.store = value().map(PathBuf::from),
            "--agent" => p.agents.extend(value()),
            "--all-agents" => p.all_agents = true,
            _ => {}
        }
    }
    p
}

/// The words of the command line being completed: what the shell passed after `--`.
fn words_being_completed() -> Vec<OsString> {
    std::env::args_os()
        .skip_while(|a| a != "--")
        .skip(1)
        .collect()
}

fn layout_of(p: &Pointed) -> Option<StateLayout> {
    let opts = DiscoverOptions {
        state_dir: p.state_dir.clone(),
        profile: p.profile.clone(),
        config: p.config.clone(),
        store: p.store.clone(),
    };
    StateLayout::discover(&opts, &Environment::from_process()).ok()
}

fn matching(current: &OsStr, values: impl IntoIterator<Item = String>) -> Vec<CompletionCandidate> {
    let current = current.to_string_lossy();
    let mut out: Vec<String> = values
        .into_iter()
        .filter(|v| v.starts_with(current.as_ref()))
        .collect();
    out.sort();
    out.dedup();
    out.into_iter().map(CompletionCandidate::new).collect()
}

fn agent_ids(current: &OsStr) -> Vec<CompletionCandidate> {
    let Some(layout) = layout_of(&pointed(&words_being_completed())) else {
        return Vec::new();
    };
    let (ids, _) = layout.known_agents();
    matching(current, ids.iter().map(|id| id.as_str().to_string()))
}

/// Session keys of the agents the command line selects (the default agent otherwise), and
/// `main`. Each store is opened read-only, as `list` opens it.
fn session_keys(current: &OsStr) -> Vec<CompletionCandidate> {
    let p = pointed(&words_being_completed());
    let Some(layout) = layout_of(&p) else {
        return Vec::new();
    };
    let Ok(agents) =
        AgentSelection::resolve(&layout, &p.agents, p.all_agents).and_then(|s| s.agents(&layout))
    else {
        return Vec::new();
    };
    // A bare key (the key without `agent:<id>:`) resolves against the selected agent, so
    // typing one completes to one.
    let typed = current.to_string_lossy();
    let bare =
        !typed.is_empty() && !"agent:".starts_with(typed.as_ref()) && !typed.starts_with("agent:");
    let mut keys = vec!["main".to_string()];
    for paths in agents {
        let prefix = format!("agent:{}:", paths.id);
        if let Ok(mut store) = AgentStore::open(paths) {
            if let Ok(sessions) = store.sessions() {
                for e in sessions {
                    if bare {
                        if let Some(rest) = e.key.strip_prefix(&prefix) {
                            keys.push(rest.to_string());
                        }
                    }
                    keys.push(e.key);
                }
            }
        }
    }
    keys.sort();
    keys.dedup();
    matching(current, keys)
}

fn check_names(current: &OsStr) -> Vec<CompletionCandidate> {
    matching(
        current,
        openclaw_sessions::doctor::CHECKS
            .iter()
            .map(|c| c.id.to_string()),
    )
}

/// Snapshot directories of the default repositories (docs/SNAPSHOTS.md) and
/// of `--repository`, then directories under what is typed.
fn snapshots(current: &OsStr) -> Vec<CompletionCandidate> {
    let words = words_being_completed();
    let p = pointed(&words);
    let mut repos = Vec::new();
    if let Some(layout) = layout_of(&p) {
        repos.extend(layout.snapshot_repositories());
    }
    let mut it = words.iter();
    while let Some(w) = it.next() {
        if w == "--repository" {
            repos.extend(it.next().map(PathBuf::from));
        }
    }
    let mut found = Vec::new();
    for repo in repos {
        if let Ok(rd) = std::fs::read_dir(&repo) {
            for ent in rd.flatten() {
                if ent.path().join("manifest.json").is_file() {
                    found.push(ent.path().display().to_string());
                }
            }
        }
    }
    let mut out = matching(current, found);
    out.extend(PathCompleter::dir().complete(current));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<OsString> {
        s.split_whitespace().map(OsString::from).collect()
    }

    #[test]
    fn the_store_the_command_line_points_at() {
        let p = pointed(&words(
            "openclaw-sessions --state-dir /srv/oc --agent work show --agent=research x",
        ));
        assert_eq!(p.state_dir, Some(PathBuf::from("/srv/oc")));
        assert_eq!(p.agents, vec!["work".to_string(), "research".to_string()]);
        let p = pointed(&words("openclaw-sessions custody run -- x --state-dir /y"));
        assert_eq!(p, Pointed::default());
    }

    #[test]
    fn every_session_argument_gets_the_live_completer() {
        fn walk(cmd: &clap::Command, found: &mut Vec<String>) {
            for a in cmd.get_arguments() {
                let name = a
                    .get_value_names()
                    .and_then(|v| v.first())
                    .map(|n| n.to_string())
                    .unwrap_or_else(|| a.get_id().as_str().to_uppercase());
                let named = name == "KEY|SESSION_ID" || name == "KEY";
                if named {
                    assert!(
                        a.get::<ArgValueCompleter>().is_some(),
                        "{} {}",
                        cmd.get_name(),
                        a.get_id()
                    );
                    found.push(cmd.get_name().to_string());
                }
            }
            for s in cmd.get_subcommands() {
                walk(s, found);
            }
        }
        let mut found = Vec::new();
        walk(&command_with_completers(), &mut found);
        for name in ["show", "cat", "delta", "patch", "archive", "delete"] {
            assert!(found.contains(&name.to_string()), "{name}: {found:?}");
        }
    }
}
