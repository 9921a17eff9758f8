//! One resolver from a user's words to `(agent, session)`, for every command that takes a
//! session. The key rules are OpenClaw's gateway rules (`resolveSessionStoreKey`,
//! `canonicalizeMainSessionAlias`, `resolveSessionIdMatchSelection`); the session-id prefix is
//! ours. `docs/openclaw/SESSION-KEYS.md` tells the rules and where they were read.
//!
//! Memory does not grow with the store: exact keys and ids are indexed lookups, prefixes are
//! index ranges with a `LIMIT`, and the few scans (case-insensitive keys, trimmed legacy ids,
//! suggestions) stream rows and keep only the best few.

use std::collections::HashMap;
use std::fmt;

use serde::Serialize;
use serde_json::Value;

use super::db::{nodes, windows};
use super::{AgentStore, SessionEntry};
use crate::error::{Error, ResultExt};
use crate::formats::session_key::{normalize_store_key, parse_agent_key_parts};
use crate::paths::{AgentId, AgentPaths, StateLayout};

/// Shortest session-id prefix accepted.
pub const MIN_PREFIX_LEN: usize = 8;
/// Candidates listed when a prefix or words match several sessions.
pub const MAX_CANDIDATES: usize = 10;
/// "Did you mean" suggestions kept.
pub const MAX_SUGGESTIONS: usize = 5;

/// The agents the command line named (`--agent`, `--all-agents`, or the one agent of
/// `--store`), resolved against the layout once, when the binary starts a command: ids
/// parsed, each checked to exist, paths computed. Every step after it (the resolver, the
/// operations, the read-only commands) takes this, never the raw words.
#[derive(Debug, Clone, Default)]
pub struct AgentSelection {
    /// `None`: the command line named no agent (the resolver then searches the key's own
    /// agent, or the owner of unscoped keys; a command on agents takes the default one).
    named: Option<Vec<AgentPaths>>,
}

impl AgentSelection {
    /// No agent named.
    pub fn none() -> Self {
        Self::default()
    }

    /// Resolve `--agent` (repeatable) and `--all-agents` against `layout` (with its
    /// `--store`): the one place the words become agents.
    pub fn resolve(
        layout: &StateLayout,
        agents: &[String],
        all: bool,
    ) -> crate::error::Result<Self> {
        if all || !agents.is_empty() || layout.store_override.is_some() {
            Ok(AgentSelection {
                named: Some(layout.select_agents(agents, all)?),
            })
        } else {
            Ok(Self::none())
        }
    }

    /// The agents the command line named, if it named any.
    pub fn named(&self) -> Option<&[AgentPaths]> {
        self.named.as_deref()
    }

    /// The agents of a command that works on whole agents and their files, never on one
    /// database named by `--store` (refused, naming `command`).
    pub fn whole_agents(
        &self,
        layout: &StateLayout,
        command: &str,
    ) -> crate::error::Result<Vec<AgentPaths>> {
        layout.require_exists()?;
        if layout.store_override.is_some() {
            return Err(Error::invalid(format!(
                "{command} works on agents, not on a single named store"
            )));
        }
        self.agents(layout)
    }

    /// The agents a command works on: the named ones, else the default agent.
    pub fn agents(&self, layout: &StateLayout) -> crate::error::Result<Vec<AgentPaths>> {
        match &self.named {
            Some(agents) => Ok(agents.clone()),
            // OpenClaw's default agent; a state dir without any agent has nothing to list
            // (an empty result, not an unknown agent: cron must not alert on a fresh host).
            None => {
                layout.require_exists()?;
                if layout.known_agents().0.is_empty() {
                    return Ok(Vec::new());
                }
                Ok(vec![layout.select_default_agent()?])
            }
        }
    }
}

/// How the words matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MatchKind {
    /// A stored key, as typed or in OpenClaw's canonical form.
    Key,
    /// `main` (or `session.mainKey`): the agent's main session.
    MainAlias,
    /// A key without `agent:<id>:`, qualified with the agent.
    BareKey,
    /// The current session id of an entry.
    SessionId,
    /// A unique prefix (at least [`MIN_PREFIX_LEN`] characters) of a current or earlier id.
    IdPrefix,
    /// An earlier transcript generation (`session_windows`).
    Window,
}

impl MatchKind {
    pub fn as_str(self) -> &'static str {
        match self {
            MatchKind::Key => "key",
            MatchKind::MainAlias => "main-alias",
            MatchKind::BareKey => "bare-key",
            MatchKind::SessionId => "session-id",
            MatchKind::IdPrefix => "id-prefix",
            MatchKind::Window => "window",
        }
    }
}

impl fmt::Display for MatchKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The session the words name.
#[derive(Debug, Clone)]
pub struct ResolvedSession {
    pub paths: AgentPaths,
    /// The key as stored.
    pub session_key: String,
    /// The generation the words named (an earlier one for `window`/`id-prefix`), else the
    /// entry's current session id.
    pub session_id: String,
    pub matched_by: MatchKind,
    pub entry: SessionEntry,
}

impl ResolvedSession {
    pub fn agent_id(&self) -> &AgentId {
        &self.paths.id
    }

    /// True when the words named an earlier generation, not the current one.
    pub fn is_earlier_generation(&self) -> bool {
        self.session_id != self.entry.session_id()
    }
}

/// A session offered in an ambiguity or a "did you mean".
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Candidate {
    pub agent_id: String,
    pub session_key: String,
    pub session_id: String,
}

impl fmt::Display for Candidate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (agent {}, id {})",
            self.session_key, self.agent_id, self.session_id
        )
    }
}

/// Why the words did not name exactly one session.
#[derive(Debug)]
pub enum ResolveError {
    /// Blank words.
    Empty,
    NotFound {
        words: String,
        /// What was tried, in order, each with the agents it was tried in.
        tried: Vec<String>,
        /// Closest keys by edit distance, best first.
        suggestions: Vec<Candidate>,
    },
    /// Several sessions match and nothing picks one.
    Ambiguous {
        words: String,
        matched_by: MatchKind,
        /// At most [`MAX_CANDIDATES`].
        candidates: Vec<Candidate>,
        /// More matched than are listed.
        truncated: bool,
    },
    /// Reading a store failed.
    Store(Error),
}

impl ResolveError {
    /// The sessions that matched (ambiguity), for the binary to render.
    pub fn candidates(&self) -> &[Candidate] {
        match self {
            ResolveError::Ambiguous { candidates, .. } => candidates,
            _ => &[],
        }
    }

    /// The closest keys (not found), for the binary to render.
    pub fn suggestions(&self) -> &[Candidate] {
        match self {
            ResolveError::NotFound { suggestions, .. } => suggestions,
            _ => &[],
        }
    }

    pub fn hint(&self) -> Option<String> {
        match self {
            ResolveError::Empty => Some("give a session key, `main`, or a session id".into()),
            ResolveError::NotFound { suggestions, .. } if !suggestions.is_empty() => {
                let keys: Vec<String> = suggestions
                    .iter()
                    .map(|c| format!("{} (agent {})", c.session_key, c.agent_id))
                    .collect();
                Some(format!("did you mean {}?", keys.join(", ")))
            }
            ResolveError::NotFound { .. } => {
                Some("give a session key, `main`, a session id or a unique id prefix".into())
            }
            ResolveError::Ambiguous { .. } => {
                Some("give the full session key or the full session id, or select one agent".into())
            }
            ResolveError::Store(e) => e.hint().map(String::from),
        }
    }
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::Empty => f.write_str("no session given (the words are blank)"),
            ResolveError::NotFound { words, tried, .. } => {
                write!(f, "no session matches {words:?}: {}", tried.join("; "))
            }
            ResolveError::Ambiguous {
                words,
                matched_by,
                candidates,
                truncated,
            } => {
                let list: Vec<String> = candidates.iter().map(ToString::to_string).collect();
                write!(
                    f,
                    "{words:?} matches several sessions by {matched_by}: {}{}",
                    list.join(", "),
                    if *truncated { ", and more" } else { "" }
                )
            }
            ResolveError::Store(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ResolveError {}

impl From<Error> for ResolveError {
    fn from(e: Error) -> Self {
        ResolveError::Store(e)
    }
}

impl From<ResolveError> for Error {
    fn from(e: ResolveError) -> Self {
        let hint = e.hint();
        match e {
            ResolveError::Store(e) => e,
            ResolveError::NotFound { .. } => Error::NotFound {
                message: e.to_string(),
                hint,
            },
            ResolveError::Empty | ResolveError::Ambiguous { .. } => Error::InvalidArgument {
                message: e.to_string(),
                hint,
            },
        }
    }
}

/// Resolve the words to one session (see the module doc and `docs/openclaw/SESSION-KEYS.md`).
pub fn resolve_session(
    layout: &StateLayout,
    selection: &AgentSelection,
    words: &str,
) -> Result<ResolvedSession, ResolveError> {
    Resolver::new(layout, selection, words)?.run()
}

/// [`resolve_session`] with the error as the crate's error.
pub fn resolve(
    layout: &StateLayout,
    selection: &AgentSelection,
    words: &str,
) -> crate::error::Result<ResolvedSession> {
    resolve_session(layout, selection, words).map_err(Error::from)
}

// ---------------------------------------------------------------------------------------------
// OpenClaw's key rules (pure functions).

/// `session.mainKey`, trimmed and lower-cased, default `main` (`normalizeMainKey`).
pub fn main_key(layout: &StateLayout) -> String {
    layout
        .config
        .root
        .pointer("/session/mainKey")
        .and_then(Value::as_str)
        .map(|s| s.trim().to_lowercase())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "main".to_string())
}

fn global_scope(layout: &StateLayout) -> bool {
    layout
        .config
        .root
        .pointer("/session/scope")
        .and_then(Value::as_str)
        == Some("global")
}

/// `normalizeAgentId`: a valid id lower-cased, anything else made filesystem-safe, `main` when
/// nothing is left.
pub fn normalize_agent_id(raw: &str) -> String {
    let t = raw.trim();
    let valid = !t.is_empty()
        && t.len() <= 64
        && t.bytes()
            .enumerate()
            .all(|(i, b)| b.is_ascii_alphanumeric() || (i > 0 && (b == b'_' || b == b'-')));
    if valid {
        return t.to_ascii_lowercase();
    }
    let lower = t.to_lowercase();
    let mut out = String::new();
    let mut in_run = false;
    for c in lower.chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-' {
            out.push(c);
            in_run = false;
        } else if !in_run {
            out.push('-');
            in_run = true;
        }
    }
    let out: String = out.trim_matches('-').chars().take(64).collect();
    if out.is_empty() {
        "main".to_string()
    } else {
        out
    }
}

/// The canonical store key OpenClaw's gateway makes of `words` for a store owned by `agent`
/// (`resolveSessionStoreKey` with `storeAgentId`), and how it was formed. None for blank words.
pub fn canonical_key(
    layout: &StateLayout,
    agent: &AgentId,
    words: &str,
) -> Option<(String, MatchKind)> {
    let raw = words.trim();
    if raw.is_empty() {
        return None;
    }
    let lower = raw.to_lowercase();
    if lower == "global" || lower == "unknown" {
        return Some((lower, MatchKind::Key));
    }
    let main_key = main_key(layout);
    let main_of = |agent: &str| {
        if global_scope(layout) {
            "global".to_string()
        } else {
            format!("agent:{}:{main_key}", normalize_agent_id(agent))
        }
    };
    if let Some((key_agent, rest)) = parse_agent_key_parts(raw) {
        let key_agent = normalize_agent_id(key_agent);
        let rest_lower = rest.to_lowercase();
        let is_main_rest = rest_lower == "main" || rest_lower == main_key;
        let main_listed = layout
            .config
            .agent_entries()
            .iter()
            .any(|e| normalize_agent_id(e) == "main");
        let (owner, key) = if key_agent != "main" || !is_main_rest || main_listed {
            (key_agent, normalize_store_key(raw))
        } else {
            let owner = agent.as_str().to_string();
            let key = format!("agent:{owner}:{rest_lower}");
            (owner, key)
        };
        // canonicalizeMainSessionAlias
        let aliases = [
            format!("agent:{owner}:{main_key}"),
            format!("agent:{owner}:main"),
            format!("agent:main:{main_key}"),
            "agent:main:main".to_string(),
        ];
        if aliases.contains(&key) {
            let main = main_of(&owner);
            let kind = if main == normalize_store_key(raw) {
                MatchKind::Key
            } else {
                MatchKind::MainAlias
            };
            return Some((main, kind));
        }
        return Some((key, MatchKind::Key));
    }
    if lower == "main" || lower == main_key {
        return Some((main_of(agent.as_str()), MatchKind::MainAlias));
    }
    let normalized = normalize_store_key(raw);
    if normalized.starts_with("agent:") {
        return Some((normalized, MatchKind::Key));
    }
    Some((format!("agent:{agent}:{normalized}"), MatchKind::BareKey))
}

/// `key` without its `agent:<agent>:`, when the resolver scoped to `agent` (`--agent`) makes
/// the same key of it again ([`canonical_key`]): the form a table shows beside its agent.
/// None when only the whole key names the session.
pub fn bare_key<'k>(layout: &StateLayout, agent: &AgentId, key: &'k str) -> Option<&'k str> {
    let rest = key.strip_prefix(&format!("agent:{agent}:"))?;
    if rest.is_empty() || rest.trim() != rest {
        return None;
    }
    match canonical_key(layout, agent, rest) {
        Some((canonical, _)) if canonical == key => Some(rest),
        _ => None,
    }
}

/// The shortest prefix of the session id `id`, of at least [`MIN_PREFIX_LEN`] characters,
/// that no other current or earlier session id of `stores` starts with: a prefix the
/// resolver takes for this session when these stores are searched. The whole id when no
/// shorter one is unique.
pub fn unique_id_prefix(stores: &[&AgentStore], id: &str) -> crate::error::Result<String> {
    let chars: Vec<(usize, char)> = id.char_indices().collect();
    for len in MIN_PREFIX_LEN..chars.len() {
        let prefix = &id[..chars[len].0];
        let mut others = false;
        for store in stores {
            if by_id_prefix(store, prefix, 2)?.iter().any(|(_, i)| i != id) {
                others = true;
                break;
            }
        }
        if !others {
            return Ok(prefix.to_string());
        }
    }
    Ok(id.to_string())
}

/// The agent OpenClaw gives unscoped keys (`main`, bare keys) when none is selected
/// (`tryResolveSessionCompatibilityOwnerAgentId` without a shared fixed store): with
/// `agents.ownership = "explicit"` the configured `agents.defaults.systemAgent.agentId` when it is
/// listed; otherwise the one entry marked `default: true`; else the sole agent; else `main`
/// when no agent is configured at all. None: OpenClaw would ask for an agent.
pub fn unscoped_owner(layout: &StateLayout) -> Option<AgentId> {
    let cfg = &layout.config;
    let listed: Vec<String> = cfg
        .agent_entries()
        .iter()
        .map(|e| normalize_agent_id(e))
        .collect();
    let explicit = cfg
        .root
        .pointer("/agents/ownership")
        .and_then(Value::as_str)
        == Some("explicit");
    let owner = if explicit {
        cfg.root
            .pointer("/agents/defaults/systemAgent/agentId")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(normalize_agent_id)
            .filter(|id| listed.contains(id))
    } else {
        let marked: Vec<&String> = match cfg.root.pointer("/agents/entries") {
            Some(Value::Object(map)) => map
                .iter()
                .filter(|(_, v)| v.get("default").and_then(Value::as_bool) == Some(true))
                .map(|(k, _)| k)
                .collect(),
            _ => Vec::new(),
        };
        (marked.len() == 1).then(|| normalize_agent_id(marked[0]))
    };
    let owner = owner.or_else(|| match listed.len() {
        0 if cfg.root.pointer("/agents/entries").is_none() => Some("main".to_string()),
        1 => Some(listed[0].clone()),
        _ => None,
    })?;
    AgentId::parse(&owner).ok()
}

// ---------------------------------------------------------------------------------------------
// OpenClaw's choice among rows sharing a session id (`resolveSessionIdMatchSelection`).

enum IdSelection {
    None,
    One(String),
    Ambiguous(Vec<String>),
}

/// `(key, updatedAt)` rows whose entry has the session id.
fn select_by_session_id(rows: &[(String, i64)], session_id: &str) -> IdSelection {
    struct Row<'a> {
        key: &'a str,
        updated: i64,
        norm_key: String,
        norm_request: String,
        canonical: bool,
        structural: bool,
    }
    if rows.is_empty() {
        return IdSelection::None;
    }
    let id = session_id.to_lowercase();
    let suffix = format!(":{id}");
    let mut groups: HashMap<String, Vec<Row>> = HashMap::new();
    for (key, updated) in rows {
        let norm_key = key.to_lowercase();
        let request = parse_agent_key_parts(&normalize_store_key(key))
            .map(|(_, rest)| rest.to_string())
            .unwrap_or_else(|| key.trim().to_string());
        let norm_request = request.to_lowercase();
        let row = Row {
            key,
            updated: *updated,
            canonical: *key == norm_key,
            structural: norm_key.ends_with(&suffix)
                || norm_request == id
                || norm_request.ends_with(&suffix),
            norm_key,
            norm_request,
        };
        groups
            .entry(row.norm_request.clone())
            .or_default()
            .push(row);
    }
    let mut canonical: Vec<Row> = groups
        .into_values()
        .map(|mut g| {
            g.sort_by(|a, b| {
                b.updated
                    .cmp(&a.updated)
                    .then(b.canonical.cmp(&a.canonical))
                    .then(a.norm_key.cmp(&b.norm_key))
            });
            g.swap_remove(0)
        })
        .collect();
    canonical.sort_by(|a, b| a.key.cmp(b.key));
    if canonical.len() == 1 {
        return IdSelection::One(canonical[0].key.to_string());
    }
    let freshest_unique = |rows: &[&Row]| -> Option<String> {
        if rows.len() == 1 {
            return Some(rows[0].key.to_string());
        }
        let mut sorted: Vec<&&Row> = rows.iter().collect();
        sorted.sort_by_key(|r| std::cmp::Reverse(r.updated));
        match (sorted.first(), sorted.get(1)) {
            (Some(a), Some(b)) if a.updated > b.updated => Some(a.key.to_string()),
            _ => None,
        }
    };
    let structural: Vec<&Row> = canonical.iter().filter(|r| r.structural).collect();
    if let Some(k) = freshest_unique(&structural) {
        return IdSelection::One(k);
    }
    if structural.len() > 1 {
        return IdSelection::Ambiguous(structural.iter().map(|r| r.key.to_string()).collect());
    }
    let all: Vec<&Row> = canonical.iter().collect();
    match freshest_unique(&all) {
        Some(k) => IdSelection::One(k),
        None => IdSelection::Ambiguous(canonical.iter().map(|r| r.key.to_string()).collect()),
    }
}

// ---------------------------------------------------------------------------------------------
// Store reads (SQLite: indexed or streamed; legacy: the small in-memory index).

/// JS `String.prototype.trim` whitespace, as OpenClaw's trimmed-id pass strips it.
use crate::formats::js::JS_WHITESPACE as JS_TRIM;

fn entry_by_key(store: &AgentStore, key: &str) -> crate::error::Result<Option<SessionEntry>> {
    if let Some(legacy) = store.legacy() {
        return Ok(legacy.entries.iter().find(|e| e.key == key).cloned());
    }
    store.entry_by_exact_key(key)
}

/// The freshest entry whose key equals `key` ignoring ASCII case (a streamed scan).
fn entry_by_key_nocase(
    store: &AgentStore,
    key: &str,
) -> crate::error::Result<Option<SessionEntry>> {
    if let Some(legacy) = store.legacy() {
        return Ok(legacy
            .entries
            .iter()
            .filter(|e| e.key.eq_ignore_ascii_case(key))
            .max_by(|a, b| a.updated_at().cmp(&b.updated_at()).then(b.key.cmp(&a.key)))
            .cloned());
    }
    let Some(db) = store.db() else {
        return Ok(None);
    };
    let found: Option<String> = nodes::live_key_nocase(db.conn(), key).at(db.path())?;
    match found {
        Some(k) => store.entry_by_exact_key(&k),
        None => Ok(None),
    }
}

/// Entries whose current session id is `id`: `(key, updatedAt)`; `trimmed` compares the stored
/// id with JS whitespace removed (OpenClaw's second pass for legacy ids; a streamed scan).
fn keys_by_session_id(
    store: &AgentStore,
    id: &str,
    trimmed: bool,
) -> crate::error::Result<Vec<(String, i64)>> {
    if let Some(legacy) = store.legacy() {
        return Ok(legacy
            .entries
            .iter()
            .filter(|e| {
                let sid = e.session_id();
                if trimmed {
                    sid != id && sid.trim_matches(JS_TRIM) == id
                } else {
                    sid == id
                }
            })
            .map(|e| (e.key.clone(), e.updated_at()))
            .collect());
    }
    let Some(db) = store.db() else {
        return Ok(Vec::new());
    };
    let trim_chars: String = JS_TRIM.iter().collect();
    nodes::live_keys_by_session_id(
        db.conn(),
        id,
        trimmed.then_some(trim_chars.as_str()),
        MAX_CANDIDATES + 1,
    )
    .at(db.path())
}

/// The key of an earlier generation `id` (`session_windows`, primary key).
fn window_key(store: &AgentStore, id: &str) -> crate::error::Result<Option<String>> {
    let Some(db) = store.db() else {
        return Ok(None);
    };
    windows::session_key_of(db.conn(), id).at(db.path())
}

/// Up to `limit` `(key, session id)` whose current or earlier id starts with `prefix`:
/// index ranges `[prefix, prefix + U+10FFFF)`.
fn by_id_prefix(
    store: &AgentStore,
    prefix: &str,
    limit: usize,
) -> crate::error::Result<Vec<(String, String)>> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut push = |key: String, id: String| {
        if !out.iter().any(|(_, i)| *i == id) {
            out.push((key, id));
        }
    };
    if let Some(legacy) = store.legacy() {
        for e in &legacy.entries {
            if e.session_id().starts_with(prefix) {
                push(e.key.clone(), e.session_id().to_string());
            }
        }
        out.truncate(limit);
        return Ok(out);
    }
    let Some(db) = store.db() else {
        return Ok(out);
    };
    let upper = format!("{prefix}\u{10FFFF}");
    for range in [
        nodes::live_keys_by_session_id_range,
        windows::by_session_id_range,
    ] {
        let rows = range(db.conn(), prefix, &upper, limit).at(db.path())?;
        for (k, i) in rows {
            push(k, i);
        }
    }
    out.truncate(limit);
    Ok(out)
}

/// Visit every live key of a store, streamed.
fn for_each_key(store: &AgentStore, mut visit: impl FnMut(&str, &str)) -> crate::error::Result<()> {
    if let Some(legacy) = store.legacy() {
        for e in &legacy.entries {
            visit(&e.key, e.session_id());
        }
        return Ok(());
    }
    let Some(db) = store.db() else { return Ok(()) };
    nodes::for_each_live_key(db.conn(), db.path(), visit)
}

// ---------------------------------------------------------------------------------------------
// The resolver.

struct Hit {
    agent: usize,
    entry: SessionEntry,
    session_id: String,
    kind: MatchKind,
}

struct Resolver<'a> {
    layout: &'a StateLayout,
    words: &'a str,
    trimmed: &'a str,
    agents: Vec<AgentPaths>,
    stores: HashMap<usize, AgentStore>,
    /// Agents searched for keys, in order (indices into `agents`).
    key_scope: Vec<usize>,
    /// Agents searched for ids and prefixes, in order.
    id_scope: Vec<usize>,
    /// Said first when nothing matches (an unknown or unselected agent in the key).
    notes: Vec<String>,
}

impl<'a> Resolver<'a> {
    fn new(
        layout: &'a StateLayout,
        selection: &AgentSelection,
        words: &'a str,
    ) -> Result<Self, ResolveError> {
        let trimmed = words.trim();
        if trimmed.is_empty() {
            return Err(ResolveError::Empty);
        }
        let key_agent = parse_agent_key_parts(trimmed)
            .map(|(a, _)| normalize_agent_id(a))
            .and_then(|a| AgentId::parse(&a).ok());
        let mut notes = Vec::new();
        let (agents, key_scope, id_scope) = if let Some(named) = selection.named() {
            let agents = named.to_vec();
            if let Some(a) = key_agent
                .as_ref()
                .filter(|a| !agents.iter().any(|p| p.id == **a))
            {
                notes.push(format!("the key names agent {a}, which is not selected"));
            }
            let all: Vec<usize> = (0..agents.len()).collect();
            (agents, all.clone(), all)
        } else {
            layout.require_exists()?;
            let (mut ids, _) = layout.known_agents();
            let owner = unscoped_owner(layout);
            let first = owner.clone().unwrap_or_else(|| layout.default_agent());
            // The owner (or default agent) is searched even when no config or directory lists
            // it yet (its store is then empty).
            if !ids.contains(&first) {
                ids.push(first.clone());
            }
            ids.sort_by_key(|id| *id != first);
            let id_scope: Vec<usize> = (0..ids.len()).collect();
            // `agent:main:main` with no agent `main` names the owner's main session (§2 of the doc).
            let owner_main = key_agent.as_ref().is_some_and(|a| a.as_str() == "main")
                && matches!(canonical_key(layout, &first, trimmed), Some((k, _)) if !k.starts_with("agent:main:"));
            let key_scope_id = match (&key_agent, &owner) {
                (Some(a), _) if !owner_main => Some(a.clone()),
                (_, Some(o)) => Some(o.clone()),
                (_, None) => None,
            };
            let key_scope = match key_scope_id {
                None => id_scope.clone(),
                Some(id) => match ids.iter().position(|k| *k == id) {
                    Some(i) => vec![i],
                    None => {
                        let (known, _) = layout.known_agents();
                        let known: Vec<&str> = known.iter().map(AgentId::as_str).collect();
                        notes.push(format!(
                            "agent {id} is not a known agent (known: {})",
                            if known.is_empty() {
                                "none".to_string()
                            } else {
                                known.join(", ")
                            }
                        ));
                        ids.push(id);
                        vec![ids.len() - 1]
                    }
                },
            };
            let agents: Vec<AgentPaths> = ids.iter().map(|id| layout.agent(id)).collect();
            (agents, key_scope, id_scope)
        };
        Ok(Resolver {
            layout,
            words,
            trimmed,
            agents,
            stores: HashMap::new(),
            key_scope,
            id_scope,
            notes,
        })
    }

    /// Open agent `i`'s store once; read it as `self.stores[&i]`.
    fn open(&mut self, i: usize) -> crate::error::Result<()> {
        if !self.stores.contains_key(&i) {
            let store = AgentStore::open(self.agents[i].clone())?;
            self.stores.insert(i, store);
        }
        Ok(())
    }

    fn agent_names(&self, scope: &[usize]) -> String {
        let names: Vec<&str> = scope.iter().map(|i| self.agents[*i].id.as_str()).collect();
        match names.len() {
            0 => "no agent".to_string(),
            1 => format!("agent {}", names[0]),
            _ => format!("agents {}", names.join(", ")),
        }
    }

    fn candidate(&self, hit: &Hit) -> Candidate {
        Candidate {
            agent_id: self.agents[hit.agent].id.to_string(),
            session_key: hit.entry.key.clone(),
            session_id: hit.session_id.clone(),
        }
    }

    /// One hit → the session; several → ambiguous; none → None.
    fn decide(&self, hits: Vec<Hit>) -> Result<Option<ResolvedSession>, ResolveError> {
        match hits.len() {
            0 => Ok(None),
            1 => {
                let hit = hits.into_iter().next().expect("one hit");
                Ok(Some(ResolvedSession {
                    paths: self.agents[hit.agent].clone(),
                    session_key: hit.entry.key.clone(),
                    session_id: hit.session_id,
                    matched_by: hit.kind,
                    entry: hit.entry,
                }))
            }
            n => Err(ResolveError::Ambiguous {
                words: self.words.to_string(),
                matched_by: hits[0].kind,
                candidates: hits
                    .iter()
                    .take(MAX_CANDIDATES)
                    .map(|h| self.candidate(h))
                    .collect(),
                truncated: n > MAX_CANDIDATES,
            }),
        }
    }

    fn run(mut self) -> Result<ResolvedSession, ResolveError> {
        let result = self.search();
        // An immutable read that raced a writer is not trusted, whatever it found.
        for store in self.stores.values() {
            store.check_consistent()?;
        }
        result
    }

    fn search(&mut self) -> Result<ResolvedSession, ResolveError> {
        let mut tried = std::mem::take(&mut self.notes);

        // 1. Keys: as typed, OpenClaw's canonical form, then that form ignoring case.
        let mut hits = Vec::new();
        let mut canon_tried = Vec::new();
        for i in self.key_scope.clone() {
            let id = self.agents[i].id.clone();
            let canonical = canonical_key(self.layout, &id, self.trimmed);
            self.open(i)?;
            let store = &self.stores[&i];
            let mut attempts: Vec<(String, MatchKind, bool)> =
                vec![(self.words.to_string(), MatchKind::Key, false)];
            if self.trimmed != self.words {
                attempts.push((self.trimmed.to_string(), MatchKind::Key, false));
            }
            if let Some((key, kind)) = canonical {
                if !attempts.iter().any(|(k, _, _)| *k == key) {
                    attempts.push((key.clone(), kind, false));
                }
                attempts.push((key.clone(), kind, true));
                canon_tried.push(key);
            }
            for (key, kind, nocase) in attempts {
                let found = if nocase {
                    entry_by_key_nocase(store, &key)?
                } else {
                    entry_by_key(store, &key)?
                };
                if let Some(entry) = found {
                    hits.push(Hit {
                        agent: i,
                        session_id: entry.session_id().to_string(),
                        entry,
                        kind,
                    });
                    break;
                }
            }
        }
        if let Some(found) = self.decide(hits)? {
            return Ok(found);
        }
        canon_tried.dedup();
        let mut keys_tried = vec![format!("{:?}", self.trimmed)];
        keys_tried.extend(
            canon_tried
                .iter()
                .filter(|k| *k != self.trimmed)
                .map(|k| format!("{k:?}")),
        );
        tried.push(format!(
            "tried as a session key {} (any case) in {}",
            keys_tried.join(", "),
            self.agent_names(&self.key_scope)
        ));

        // 2. A current session id: exact, then OpenClaw's trimmed-id pass for legacy rows.
        for trimmed_pass in [false, true] {
            let mut hits = Vec::new();
            for i in self.id_scope.clone() {
                let id_words = self.trimmed;
                self.open(i)?;
                let store = &self.stores[&i];
                let rows = keys_by_session_id(store, id_words, trimmed_pass)?;
                let key = match select_by_session_id(&rows, id_words) {
                    IdSelection::None => continue,
                    IdSelection::One(k) => k,
                    IdSelection::Ambiguous(keys) => {
                        let agent = self.agents[i].id.to_string();
                        let truncated = keys.len() > MAX_CANDIDATES;
                        return Err(ResolveError::Ambiguous {
                            words: self.words.to_string(),
                            matched_by: MatchKind::SessionId,
                            candidates: keys
                                .into_iter()
                                .take(MAX_CANDIDATES)
                                .map(|k| Candidate {
                                    agent_id: agent.clone(),
                                    session_key: k,
                                    session_id: id_words.to_string(),
                                })
                                .collect(),
                            truncated,
                        });
                    }
                };
                if let Some(entry) = entry_by_key(store, &key)? {
                    hits.push(Hit {
                        agent: i,
                        session_id: entry.session_id().to_string(),
                        entry,
                        kind: MatchKind::SessionId,
                    });
                }
            }
            if let Some(found) = self.decide(hits)? {
                return Ok(found);
            }
        }

        // 3. An earlier generation.
        let mut hits = Vec::new();
        for i in self.id_scope.clone() {
            let id_words = self.trimmed;
            self.open(i)?;
            let store = &self.stores[&i];
            if let Some(key) = window_key(store, id_words)? {
                if let Some(entry) = entry_by_key(store, &key)? {
                    hits.push(Hit {
                        agent: i,
                        entry,
                        session_id: id_words.to_string(),
                        kind: MatchKind::Window,
                    });
                }
            }
        }
        if let Some(found) = self.decide(hits)? {
            return Ok(found);
        }
        tried.push(format!(
            "tried as a session id, current or earlier, in {}",
            self.agent_names(&self.id_scope)
        ));

        // 4. A unique session-id prefix.
        let id_like = !self.trimmed.contains(':') && !self.trimmed.contains(char::is_whitespace);
        let chars = self.trimmed.chars().count();
        if id_like && chars >= MIN_PREFIX_LEN {
            let mut prefixes = vec![self.trimmed.to_string()];
            let lower = self.trimmed.to_lowercase();
            if lower != self.trimmed {
                prefixes.push(lower);
            }
            let mut hits: Vec<Hit> = Vec::new();
            for i in self.id_scope.clone() {
                for prefix in &prefixes {
                    self.open(i)?;
                    let store = &self.stores[&i];
                    for (key, id) in by_id_prefix(store, prefix, MAX_CANDIDATES + 1)? {
                        if hits.iter().any(|h| h.agent == i && h.session_id == id) {
                            continue;
                        }
                        if let Some(entry) = entry_by_key(store, &key)? {
                            hits.push(Hit {
                                agent: i,
                                entry,
                                session_id: id,
                                kind: MatchKind::IdPrefix,
                            });
                        }
                    }
                }
            }
            if let Some(found) = self.decide(hits)? {
                return Ok(found);
            }
            tried.push(format!(
                "tried as a session-id prefix in {}",
                self.agent_names(&self.id_scope)
            ));
        } else if id_like {
            tried.push(format!(
                "not tried as a session-id prefix, which needs at least {MIN_PREFIX_LEN} characters"
            ));
        }

        let suggestions = self.suggestions()?;
        Err(ResolveError::NotFound {
            words: self.words.to_string(),
            tried,
            suggestions,
        })
    }

    /// The closest keys (edit distance to the whole key or to it without `agent:<id>:`), over
    /// every searched agent, streamed, keeping the best few.
    fn suggestions(&mut self) -> Result<Vec<Candidate>, ResolveError> {
        let needle = self.trimmed.to_lowercase();
        let limit = (needle.chars().count() / 3).max(2);
        let mut scope = self.key_scope.clone();
        for i in &self.id_scope {
            if !scope.contains(i) {
                scope.push(*i);
            }
        }
        // (distance, agent order, key, id), sorted, at most MAX_SUGGESTIONS.
        let mut best: Vec<(usize, usize, String, String)> = Vec::new();
        for (order, i) in scope.iter().enumerate() {
            self.open(*i)?;
            let store = &self.stores[i];
            for_each_key(store, |key, id| {
                let lower = key.to_lowercase();
                let mut d = strsim::levenshtein(&needle, &lower);
                if let Some((_, rest)) = parse_agent_key_parts(&lower) {
                    d = d.min(strsim::levenshtein(&needle, rest));
                }
                if d > limit {
                    return;
                }
                let pos = best.partition_point(|b| (b.0, b.1, b.2.as_str()) <= (d, order, key));
                if pos < MAX_SUGGESTIONS {
                    best.insert(pos, (d, order, key.to_string(), id.to_string()));
                    best.truncate(MAX_SUGGESTIONS);
                }
            })?;
        }
        Ok(best
            .into_iter()
            .map(|(_, order, key, id)| Candidate {
                agent_id: self.agents[scope[order]].id.to_string(),
                session_key: key,
                session_id: id,
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    //! Expectations on a copy of `tests/fixtures/openclaw-2026.9.6/live` (config:
    //! `agents.ownership: "explicit"`, `systemAgent: main`). Where a test says "OpenClaw:", the
    //! same words were run through OpenClaw 2026.9.6 itself on the same store (`ocnode`, see
    //! `docs/openclaw/SESSION-KEYS.md`): `resolveSessionStoreKey` / `resolveSessionStoreIdentity`
    //! (gateway key rule) with `getSessionEntry` for keys, `resolveExistingSessionKeyForRequest
    //! ({sessionId})` for ids, `resolveTranscriptSessionKeyBySessionId` for earlier generations.
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::paths::{DiscoverOptions, Environment};
    use crate::store::db::nodes::LIVE_ROW;
    use rusqlite::params;

    const FIXTURES: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/openclaw-2026.9.6"
    );
    const MAIN_ID: &str = "92ed55f2-df5b-4475-8cc2-23d3d692f452";
    const WORK_SCRATCH_ID: &str = "fdea557b-6ec3-492f-8c81-1004de2cb7c0";

    fn copy_dir(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for ent in std::fs::read_dir(from).unwrap() {
            let ent = ent.unwrap();
            let dest = to.join(ent.file_name());
            if ent.file_type().unwrap().is_dir() {
                copy_dir(&ent.path(), &dest);
            } else {
                std::fs::copy(ent.path(), &dest).unwrap();
                let mut perms = std::fs::metadata(&dest).unwrap().permissions();
                #[allow(clippy::permissions_set_readonly_false)]
                perms.set_readonly(false);
                std::fs::set_permissions(&dest, perms).unwrap();
            }
        }
    }

    struct Fixture {
        dir: tempfile::TempDir,
    }

    impl Fixture {
        fn copy(variant: &str) -> Self {
            let dir = tempfile::tempdir().unwrap();
            copy_dir(
                &Path::new(FIXTURES).join(variant).join(".openclaw"),
                &dir.path().join(".openclaw"),
            );
            Fixture { dir }
        }

        fn state(&self) -> PathBuf {
            self.dir.path().join(".openclaw")
        }

        fn layout(&self) -> StateLayout {
            let opts = DiscoverOptions {
                state_dir: Some(self.state()),
                ..Default::default()
            };
            let env = Environment {
                home: Some(self.dir.path().to_string_lossy().into_owned()),
                ..Default::default()
            };
            StateLayout::discover(&opts, &env).unwrap()
        }

        fn db(&self, agent: &str) -> rusqlite::Connection {
            rusqlite::Connection::open(
                self.state()
                    .join("agents")
                    .join(agent)
                    .join("agent")
                    .join("openclaw-agent.sqlite"),
            )
            .unwrap()
        }

        /// Give the entry under `key` a new current session id.
        fn set_session_id(&self, agent: &str, key: &str, id: &str) {
            let n = self
                .db(agent)
                .execute(
                    "UPDATE session_nodes SET current_session_id = ?2, \
                     entry_json = json_set(entry_json, '$.sessionId', ?2) WHERE session_key = ?1",
                    params![key, id],
                )
                .unwrap();
            assert_eq!(n, 1, "{agent} {key}");
        }

        fn resolve(
            &self,
            sel: &AgentSelection,
            words: &str,
        ) -> Result<ResolvedSession, ResolveError> {
            resolve_session(&self.layout(), sel, words)
        }
    }

    fn ok(f: &Fixture, words: &str) -> (String, String, String, MatchKind) {
        let r = f
            .resolve(&AgentSelection::none(), words)
            .unwrap_or_else(|e| panic!("{words:?}: {e}"));
        (
            r.paths.id.to_string(),
            r.session_key,
            r.session_id,
            r.matched_by,
        )
    }

    #[test]
    fn main_alias() {
        let f = Fixture::copy("live");
        // OpenClaw: resolveSessionStoreKey("main") = "agent:main:main" (owner = systemAgent main);
        // resolveExistingSessionKeyForRequest({sessionKey: "main"}) finds it with this id.
        // The stored key "agent:main:main" is not the word "main", so this is the alias.
        assert_eq!(
            ok(&f, "main"),
            (
                "main".into(),
                "agent:main:main".into(),
                MAIN_ID.into(),
                MatchKind::MainAlias
            )
        );
        // OpenClaw: the gateway lower-cases and trims (resolveSessionStoreKey("MAIN") and
        // (" main ") = "agent:main:main"); the agent command's canonicalizeMainSessionAlias is
        // case-sensitive and does not find "MAIN": we follow the gateway.
        assert_eq!(ok(&f, " MAIN ").1, "agent:main:main");
        // With an agent selected, that agent's main session (resolveAgentMainSessionKey).
        let r = f
            .resolve(
                &AgentSelection::resolve(&f.layout(), &["work".to_string()], false).unwrap(),
                "main",
            )
            .unwrap();
        assert_eq!(
            (r.paths.id.as_str(), r.session_key.as_str()),
            ("work", "agent:work:main")
        );
        assert_eq!(r.matched_by, MatchKind::MainAlias);
        // Every agent selected: three main sessions, none chosen.
        let e = f
            .resolve(
                &AgentSelection::resolve(&f.layout(), &[], true).unwrap(),
                "main",
            )
            .unwrap_err();
        let keys: Vec<&str> = e
            .candidates()
            .iter()
            .map(|c| c.session_key.as_str())
            .collect();
        assert_eq!(
            keys,
            ["agent:main:main", "agent:work:main", "agent:research:main"],
            "{e}"
        );
        let err = Error::from(e);
        assert_eq!(err.kind(), crate::error::ErrorKind::InvalidArgument);
        assert!(err.to_string().contains("agent:work:main"), "{err}");
    }

    #[test]
    fn bare_key_goes_to_the_owner() {
        let f = Fixture::copy("live");
        // OpenClaw: resolveSessionStoreKey("pinned-notes") = "agent:main:pinned-notes" and
        // ("Scratch-1") = "agent:main:scratch-1": bare keys go to the owner (systemAgent main),
        // lower-cased, never to work's or research's keys of the same name.
        assert_eq!(
            ok(&f, "pinned-notes"),
            (
                "main".into(),
                "agent:main:pinned-notes".into(),
                "c11d8540-2656-4573-b1f0-e6fee19fdfb1".into(),
                MatchKind::BareKey
            )
        );
        assert_eq!(ok(&f, "Scratch-1").1, "agent:main:scratch-1");
        // With --agent work, qualified with work (canonicalizeSessionKeyForAgent).
        let r = f
            .resolve(
                &AgentSelection::resolve(&f.layout(), &["work".to_string()], false).unwrap(),
                "scratch-1",
            )
            .unwrap();
        assert_eq!(r.session_key, "agent:work:scratch-1");
        assert_eq!(r.session_id, WORK_SCRATCH_ID);
        assert_eq!(r.matched_by, MatchKind::BareKey);
    }

    #[test]
    fn full_key_goes_to_its_agent() {
        let f = Fixture::copy("live");
        // OpenClaw: resolveSessionStoreIdentity("agent:work:scratch-1") = {agentId: "work",
        // canonicalKey: "agent:work:scratch-1"}; the row has this id.
        assert_eq!(
            ok(&f, "agent:work:scratch-1"),
            (
                "work".into(),
                "agent:work:scratch-1".into(),
                WORK_SCRATCH_ID.into(),
                MatchKind::Key
            )
        );
        // Normalized (trimmed, lower-cased) as OpenClaw's normalizeSessionKeyPreservingOpaquePeerIds.
        assert_eq!(ok(&f, " Agent:Work:SCRATCH-1").1, "agent:work:scratch-1");
        // "agent:research:main" is a stored key, matched as a key.
        assert_eq!(ok(&f, "agent:research:main").3, MatchKind::Key);
    }

    #[test]
    fn session_id_in_any_agent() {
        let f = Fixture::copy("live");
        // OpenClaw: resolveExistingSessionKeyForRequest({sessionId}) searches the default agent's
        // store, then the other configured agents: agentId "work", key "agent:work:scratch-1".
        assert_eq!(
            ok(&f, WORK_SCRATCH_ID),
            (
                "work".into(),
                "agent:work:scratch-1".into(),
                WORK_SCRATCH_ID.into(),
                MatchKind::SessionId
            )
        );
        assert_eq!(ok(&f, MAIN_ID).1, "agent:main:main");
        // With another agent selected the id is not there.
        let e = f
            .resolve(
                &AgentSelection::resolve(&f.layout(), &["research".to_string()], false).unwrap(),
                WORK_SCRATCH_ID,
            )
            .unwrap_err();
        assert!(matches!(e, ResolveError::NotFound { .. }), "{e}");
    }

    #[test]
    fn earlier_generation_by_window() {
        let f = Fixture::copy("live");
        let old = "0a1b2c3d-0000-4000-8000-000000000001";
        f.db("main")
            .execute(
                "INSERT INTO session_windows (session_id, session_key, reason, created_at, updated_at) \
                 VALUES (?1, 'agent:main:main', 'reset', 1, 1)",
                [old],
            )
            .unwrap();
        // OpenClaw: resolveTranscriptSessionKeyBySessionId({agentId: "main", sessionId: old}) =
        // "agent:main:main" (session_windows); resolveExistingSessionKeyForRequest finds nothing.
        let r = f.resolve(&AgentSelection::none(), old).unwrap();
        assert_eq!(
            (r.session_key.as_str(), r.session_id.as_str()),
            ("agent:main:main", old)
        );
        assert_eq!(r.matched_by, MatchKind::Window);
        assert!(r.is_earlier_generation());
        assert_eq!(r.entry.session_id(), MAIN_ID);
        // A prefix of it names that generation too (ours).
        let r = f.resolve(&AgentSelection::none(), &old[..8]).unwrap();
        assert_eq!(
            (r.session_id.as_str(), r.matched_by),
            (old, MatchKind::IdPrefix)
        );
    }

    #[test]
    fn id_prefix_of_eight_characters() {
        let f = Fixture::copy("live");
        // OpenClaw has no session-id prefix: resolveExistingSessionKeyForRequest({sessionId:
        // "fdea557b"}) finds nothing, and sessions.resolve {shortId} matches a UUID at the end of
        // the key, not the session id. Ours: a unique prefix of at least 8 characters.
        assert_eq!(
            ok(&f, "fdea557b"),
            (
                "work".into(),
                "agent:work:scratch-1".into(),
                WORK_SCRATCH_ID.into(),
                MatchKind::IdPrefix
            )
        );
        assert_eq!(ok(&f, "FDEA557B-6ec3").1, "agent:work:scratch-1");
    }

    #[test]
    fn seven_characters_are_too_short() {
        let f = Fixture::copy("live");
        let e = f.resolve(&AgentSelection::none(), "fdea557").unwrap_err();
        let msg = e.to_string();
        assert!(matches!(e, ResolveError::NotFound { .. }), "{msg}");
        assert!(msg.contains("at least 8 characters"), "{msg}");
        assert!(msg.contains("agents main, work, research"), "{msg}");
        assert_eq!(Error::from(e).kind(), crate::error::ErrorKind::NotFound);
    }

    #[test]
    fn ambiguous_prefix_lists_candidates() {
        let f = Fixture::copy("live");
        f.set_session_id(
            "main",
            "agent:main:scratch-1",
            "abcdef01-1111-4111-8111-111111111111",
        );
        f.set_session_id(
            "work",
            "agent:work:scratch-2",
            "abcdef01-2222-4222-8222-222222222222",
        );
        let e = f.resolve(&AgentSelection::none(), "abcdef01").unwrap_err();
        let found: Vec<(&str, &str)> = e
            .candidates()
            .iter()
            .map(|c| (c.agent_id.as_str(), c.session_key.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                ("main", "agent:main:scratch-1"),
                ("work", "agent:work:scratch-2")
            ],
            "{e}"
        );
        assert!(matches!(
            e,
            ResolveError::Ambiguous {
                matched_by: MatchKind::IdPrefix,
                ..
            }
        ));
        // One more character decides.
        assert_eq!(ok(&f, "abcdef01-2").1, "agent:work:scratch-2");
        // Or one agent.
        let r = f
            .resolve(
                &AgentSelection::resolve(&f.layout(), &["main".to_string()], false).unwrap(),
                "abcdef01",
            )
            .unwrap();
        assert_eq!(r.session_key, "agent:main:scratch-1");
    }

    #[test]
    fn same_id_in_two_agents_is_refused() {
        let f = Fixture::copy("live");
        f.set_session_id("research", "agent:research:scratch-1", WORK_SCRATCH_ID);
        // OpenClaw disagrees with itself here: the gateway's sessions.resolve {sessionId} without
        // agentId refuses ("Multiple sessions found for sessionId", read from code), while
        // resolveExistingSessionKeyForRequest({sessionId}) (agent command) picks the freshest row
        // (run on such a store, made with the SDK's upsertSessionEntry). Ours refuses, with both.
        let e = f
            .resolve(&AgentSelection::none(), WORK_SCRATCH_ID)
            .unwrap_err();
        assert_eq!(e.candidates().len(), 2, "{e}");
        assert!(matches!(
            e,
            ResolveError::Ambiguous {
                matched_by: MatchKind::SessionId,
                ..
            }
        ));
    }

    #[test]
    fn typo_gets_suggestions() {
        let f = Fixture::copy("live");
        // OpenClaw: resolveSessionStoreKey("scrach-1") = "agent:main:scrach-1", no such row (it
        // makes no suggestion).
        let e = f.resolve(&AgentSelection::none(), "scrach-1").unwrap_err();
        let first = &e.suggestions()[0];
        assert_eq!(
            (first.agent_id.as_str(), first.session_key.as_str()),
            ("main", "agent:main:scratch-1")
        );
        assert!(e.suggestions().len() <= MAX_SUGGESTIONS);
        let err = Error::from(e);
        assert_eq!(err.kind(), crate::error::ErrorKind::NotFound);
        let hint = err.hint().unwrap().to_string();
        assert!(
            hint.starts_with("did you mean agent:main:scratch-1 (agent main)"),
            "{hint}"
        );
        assert!(!err.to_string().contains("openclaw-sessions"), "{err}");
        // A typo in a full key.
        let e = f
            .resolve(&AgentSelection::none(), "agent:work:scratch-l")
            .unwrap_err();
        assert_eq!(
            e.suggestions()[0].session_key,
            "agent:work:scratch-1",
            "{e}"
        );
    }

    #[test]
    fn unknown_or_unselected_agent_is_said() {
        let f = Fixture::copy("live");
        let e = f
            .resolve(&AgentSelection::none(), "agent:nope:main")
            .unwrap_err();
        assert!(
            e.to_string()
                .contains("agent nope is not a known agent (known: main, work, research)"),
            "{e}"
        );
        // OpenClaw refuses this pair outright (resolveRequestedSessionAgentId: agent "research"
        // does not match session key agent "work"); ours finds nothing in research and says why.
        let e = f
            .resolve(
                &AgentSelection::resolve(&f.layout(), &["research".to_string()], false).unwrap(),
                "agent:work:main",
            )
            .unwrap_err();
        assert!(
            e.to_string()
                .contains("the key names agent work, which is not selected"),
            "{e}"
        );
    }

    #[test]
    fn without_an_owner_every_agent_is_searched() {
        let f = Fixture::copy("live");
        let cfg = f.state().join("openclaw.json");
        let mut doc: Value = crate::json_value::from_slice(&std::fs::read(&cfg).unwrap()).unwrap();
        doc["agents"].as_object_mut().unwrap().remove("defaults");
        std::fs::write(&cfg, serde_json::to_vec(&doc).unwrap()).unwrap();
        assert_eq!(unscoped_owner(&f.layout()), None);
        // OpenClaw: resolveSessionStoreIdentity("main") and ("sdk-made-2") throw
        // AgentSelectionRequiredError ("Multiple agents are configured, but session key "main"
        // has no explicit owner"). Ours searches every agent: one match is taken, several are
        // refused with the candidates.
        let e = f.resolve(&AgentSelection::none(), "main").unwrap_err();
        assert_eq!(e.candidates().len(), 3, "{e}");
        assert_eq!(ok(&f, "sdk-made-2").1, "agent:work:sdk-made-2");
        // A key with its agent is unaffected (OpenClaw: agent work, agent:work:main).
        assert_eq!(ok(&f, "agent:work:main").1, "agent:work:main");
    }

    #[test]
    fn blank_words_are_refused() {
        let f = Fixture::copy("live");
        let e = f.resolve(&AgentSelection::none(), "  ").unwrap_err();
        assert!(matches!(e, ResolveError::Empty));
        assert_eq!(
            Error::from(e).kind(),
            crate::error::ErrorKind::InvalidArgument
        );
    }

    /// OpenClaw 2026.9.6 reads no legacy store (its SDK reads SQLite only; `openclaw sessions`
    /// lists 0 rows there): the key rules are its (resolveSessionStoreKey), the lookup is ours.
    #[test]
    fn legacy_only_store() {
        let f = Fixture::copy("legacy");
        assert_eq!(ok(&f, "main").1, "agent:main:main");
        assert_eq!(ok(&f, "pinned-notes").1, "agent:main:pinned-notes");
        assert_eq!(
            ok(&f, "e61ead66-7ff3-4cfd-9fdc-89a9178ef16c"),
            (
                "work".into(),
                "agent:work:main".into(),
                "e61ead66-7ff3-4cfd-9fdc-89a9178ef16c".into(),
                MatchKind::SessionId
            )
        );
        assert_eq!(ok(&f, "e61ead66").3, MatchKind::IdPrefix);
        let e = f
            .resolve(&AgentSelection::none(), "pinned-note")
            .unwrap_err();
        assert_eq!(e.suggestions()[0].session_key, "agent:main:pinned-notes");
    }

    #[test]
    fn lookups_use_indexes() {
        let f = Fixture::copy("live");
        let conn = f.db("main");
        let plan = |sql: &str| -> String {
            let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
            let rows = stmt
                .query_map(params!["a", "b"], |r| r.get::<_, String>(3))
                .unwrap()
                .collect::<rusqlite::Result<Vec<_>>>()
                .unwrap();
            rows.join(" | ")
        };
        let nodes = plan(&format!(
            "SELECT session_key, current_session_id FROM session_nodes \
             WHERE current_session_id >= ?1 AND current_session_id < ?2 AND {LIVE_ROW} \
             ORDER BY current_session_id LIMIT 11"
        ));
        assert!(
            nodes.contains("idx_agent_session_nodes_current_session_id"),
            "{nodes}"
        );
        let windows = plan(
            "SELECT session_key, session_id FROM session_windows \
             WHERE session_id >= ?1 AND session_id < ?2 ORDER BY session_id LIMIT 11",
        );
        assert!(
            windows.contains("USING INDEX sqlite_autoindex_session_windows_1"),
            "{windows}"
        );
        let by_id = plan(&format!(
            "SELECT session_key, updated_at FROM session_nodes WHERE current_session_id = ?1 \
             AND {LIVE_ROW} AND ?2 = ?2 ORDER BY session_key LIMIT 11"
        ));
        assert!(
            by_id.contains("idx_agent_session_nodes_current_session_id"),
            "{by_id}"
        );
    }

    #[test]
    fn key_rules() {
        assert_eq!(normalize_agent_id(" Work "), "work");
        assert_eq!(normalize_agent_id("a b!c"), "a-b-c");
        assert_eq!(normalize_agent_id("!!"), "main");
    }
}
