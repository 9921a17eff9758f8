use clap::Args;
use serde::Serialize;

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use base64::Engine as _;
use serde_json::json;

use openclaw_sessions::parallel;
use openclaw_sessions::store::resolve::{bare_key, unique_id_prefix};
use openclaw_sessions::store::{
    for_each_newest_first_after, AgentStore, EventCountWalk, EventCounts, OpenClawKind, Position,
    SessionEntry, SessionKind,
};
use openclaw_sessions::units::{format_age, format_bytes, parse_time_arg};

use crate::cli::exit::Outcome;
use crate::cli::table::Column;
use crate::cli::Ctx;

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum SortKey {
    Updated,
    Created,
    Events,
    Bytes,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    pub output: crate::cli::context::TableOutput,
    #[command(flatten)]
    pub filters: SessionFilters,
    /// At most N rows, or `all`. Under --json, `page` says how many matched and gives the
    /// cursor of the next page.
    #[arg(long, default_value = "100", value_name = "N|all")]
    limit: String,
    /// Start after the row this cursor names: `page.next` of the previous page (--json) or
    /// the cursor the table's footer names. Newest-first order (--sort updated) only; the
    /// rows before it are not read again.
    #[arg(long, value_name = "CURSOR")]
    after: Option<String>,
    /// Newest first by this field.
    #[arg(long, value_enum, default_value_t = SortKey::Updated)]
    sort: SortKey,
    /// Include transcript bytes in --json output (`transcript.bytes`; it reads every event of
    /// every listed transcript, so without it the key is left out; the table always shows
    /// them for its rows).
    #[arg(long)]
    bytes: bool,
}

/// The filters of `list`, also the selectors of the commands that change sessions
/// (`archive`, `unarchive`, `delete`).
#[derive(Debug, Clone, Default, Args)]
pub struct SessionFilters {
    /// Only sessions updated within DURATION: 30m, 2h, 7d, 1w (a bare number is minutes).
    #[arg(long, value_name = "DURATION", value_parser = crate::cli::durations::parse_active)]
    pub active: Option<u64>,
    /// Only archived sessions.
    #[arg(long, conflicts_with = "no_archived")]
    pub archived: bool,
    /// Leave archived sessions out.
    #[arg(long)]
    pub no_archived: bool,
    /// Only sessions of this kind, as OpenClaw's `openclaw sessions --json` names it and
    /// `--json`'s `kind` says (repeatable).
    #[arg(long, value_enum, value_name = "KIND")]
    pub kind: Vec<KindArg>,
    /// Only sessions of this category: our finer classification by key shape, `--json`'s
    /// `category` and the table's CATEGORY column (repeatable).
    #[arg(long, value_enum, value_name = "CATEGORY")]
    pub category: Vec<CategoryArg>,
    /// Only sessions whose key, label or display name contains TEXT (case-insensitive).
    #[arg(long = "match", value_name = "TEXT")]
    pub matches: Option<String>,
    /// Only sessions updated before TIME: an age (7d, 1w2d12h), a date (2026-06-01, UTC), an
    /// RFC 3339 instant (2026-06-01T08:00:00Z), or epoch time with its unit (@1780351215s,
    /// @1780351215000ms).
    #[arg(long, value_name = "TIME")]
    pub updated_before: Option<String>,
    /// Only sessions updated after TIME (the same forms as --updated-before).
    #[arg(long, value_name = "TIME")]
    pub updated_after: Option<String>,
}

impl SessionFilters {
    /// Whether any filter was given.
    pub fn any(&self) -> bool {
        self.active.is_some()
            || self.archived
            || self.no_archived
            || !self.kind.is_empty()
            || !self.category.is_empty()
            || self.matches.is_some()
            || self.updated_before.is_some()
            || self.updated_after.is_some()
    }

    /// The full keys of the sessions of `agents` these filters keep, in each store's order.
    pub fn matching_keys(
        &self,
        ctx: &Ctx,
        agents: Vec<openclaw_sessions::paths::AgentPaths>,
    ) -> anyhow::Result<Vec<String>> {
        let now = openclaw_sessions::test_hooks::now_ms();
        let parse = |t: &Option<String>| t.as_deref().map(|t| parse_time_arg(t, now)).transpose();
        let filter = Filter {
            args: self,
            now,
            before: parse(&self.updated_before)?,
            after: parse(&self.updated_after)?,
            needle: self.matches.as_ref().map(|m| m.to_lowercase()),
        };
        let mut keys = Vec::new();
        for mut store in open_stores(ctx, agents)? {
            let sessions = store.sessions()?;
            ctx.flush_warnings(&mut store);
            keys.extend(
                sessions
                    .into_iter()
                    .filter(|e| filter.keeps(e))
                    .map(|e| e.key),
            );
        }
        Ok(keys)
    }
}

/// `--kind`: the parser's side of the library's [`OpenClawKind`], which knows no clap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KindArg(OpenClawKind);

impl clap::ValueEnum for KindArg {
    fn value_variants<'a>() -> &'a [Self] {
        static ALL: std::sync::LazyLock<Vec<KindArg>> =
            std::sync::LazyLock::new(|| OpenClawKind::ALL.map(KindArg).to_vec());
        &ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.0.as_str()))
    }
}

/// `--category`: the parser's side of the library's [`SessionKind`], which knows no clap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CategoryArg(SessionKind);

impl clap::ValueEnum for CategoryArg {
    fn value_variants<'a>() -> &'a [Self] {
        static ALL: std::sync::LazyLock<Vec<CategoryArg>> =
            std::sync::LazyLock::new(|| SessionKind::ALL.map(CategoryArg).to_vec());
        &ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.0.as_str()))
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ListRow<'a> {
    agent_id: &'a str,
    session_key: &'a str,
    session_id: &'a str,
    updated_at: i64,
    /// OpenClaw's `kind` (`openclaw sessions --json`).
    kind: OpenClawKind,
    /// Our own classification by key shape.
    category: SessionKind,
    label: Option<&'a str>,
    display_name: Option<&'a str>,
    archived: bool,
    pinned: bool,
    locked: bool,
    harness: Option<&'a str>,
    model: Option<String>,
    transcript: Transcript,
    entry: &'a serde_json::value::RawValue,
}

struct Row {
    store: usize,
    entry: SessionEntry,
    events: Option<u64>,
    bytes: Option<u64>,
}

#[derive(Serialize)]
struct Transcript {
    events: u64,
    /// Only when asked for (`--bytes`, `--sort bytes`): the serialized size is summed over
    /// every event row of the transcript (no index or stored total carries it), where the
    /// event count is read off the primary-key index alone; so without the flag the key is
    /// left out rather than written as a `null` that reads like "unknown" (README.md, JSON).
    #[serde(skip_serializing_if = "Option::is_none")]
    bytes: Option<u64>,
}

/// Fill in what the output needs: the event count from the index (from `counts` once the
/// store's have been read in one pass), bytes only if wanted.
fn fill(
    stores: &[AgentStore],
    counts: &[OnceLock<Option<EventCounts>>],
    row: &mut Row,
    bytes: bool,
) -> openclaw_sessions::Result<()> {
    let store = &stores[row.store];
    if bytes && row.bytes.is_none() {
        let s = store.transcript_stats(row.entry.session_id())?;
        row.events = Some(s.events);
        row.bytes = Some(s.bytes);
    } else if row.events.is_none() {
        row.events = Some(match counts.get(row.store).and_then(OnceLock::get) {
            Some(Some(c)) => c.get(row.entry.session_id()),
            _ => store.transcript_event_count(row.entry.session_id())?,
        });
    }
    Ok(())
}

/// The row filters of the command line.
struct Filter<'a> {
    args: &'a SessionFilters,
    now: i64,
    before: Option<i64>,
    after: Option<i64>,
    needle: Option<String>,
}

impl Filter<'_> {
    fn keeps(&self, e: &SessionEntry) -> bool {
        let a = self.args;
        a.active
            .is_none_or(|ms| e.updated_at() >= self.now.saturating_sub(ms as i64))
            && (!a.archived || e.archived())
            && (!a.no_archived || !e.archived())
            && (a.kind.is_empty() || a.kind.contains(&KindArg(e.openclaw_kind())))
            && (a.category.is_empty() || a.category.contains(&CategoryArg(e.kind())))
            && self.needle.as_deref().is_none_or(|n| e.matches(n))
            && self.before.is_none_or(|b| e.updated_at() < b)
            && self.after.is_none_or(|t| e.updated_at() > t)
    }
}

/// Writes the `--json` row of `row`, its fields borrowed from the entry and the entry itself
/// passed through as stored.
fn push_row(
    out: &mut crate::cli::printer::JsonRows<'_, impl std::io::Write>,
    stores: &[AgentStore],
    row: &Row,
) -> anyhow::Result<()> {
    let e = &row.entry;
    // The stored text as it is (checked as JSON without building anything); an entry with
    // none (a legacy index's) is serialized from its fields.
    let owned;
    let entry = match e
        .stored_json
        .as_deref()
        .and_then(|t| serde_json::from_str::<&serde_json::value::RawValue>(t).ok())
    {
        Some(raw) => raw,
        None => {
            owned = e.to_raw();
            &*owned
        }
    };
    out.push(&ListRow {
        agent_id: stores[row.store].paths.id.as_str(),
        session_key: &e.key,
        session_id: e.session_id(),
        updated_at: e.updated_at(),
        kind: e.openclaw_kind(),
        category: e.kind(),
        label: e.label(),
        display_name: e.display_name(),
        archived: e.archived(),
        pinned: e.pinned(),
        locked: e.locked(),
        harness: e.harness(),
        model: e.model(),
        transcript: Transcript {
            events: row.events.unwrap_or(0),
            bytes: row.bytes,
        },
        entry,
    })
}

/// A page's place in the whole listing, for `--json` (`page`) and the table's footer.
struct Page {
    /// Matching sessions from the page's start on (all of them on the first page).
    total: usize,
    returned: usize,
    /// Where the next page starts, when there is one.
    next: Option<String>,
}

impl Page {
    fn json(&self) -> serde_json::Value {
        json!({
            "total": self.total,
            "returned": self.returned,
            "more": self.total > self.returned,
            "next": self.next,
        })
    }
}

/// The opaque `--after` cursor of the row at `position`: its time, agent and key.
fn cursor(stores: &[AgentStore], position: &Position) -> String {
    let doc = json!({
        "u": position.updated_at,
        "a": stores[position.store].paths.id.as_str(),
        "k": position.key,
    });
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(doc.to_string())
}

/// `--after CURSOR` as a place among the selected agents' stores.
fn position(stores: &[AgentStore], raw: &str) -> openclaw_sessions::Result<Position> {
    let bad = || {
        openclaw_sessions::Error::invalid(format!(
            "--after {raw:?} is not a cursor of `list` (use the `page.next` of a --json page)"
        ))
    };
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(raw.trim())
        .map_err(|_| bad())?;
    let doc: serde_json::Value = serde_json::from_slice(&bytes).map_err(|_| bad())?;
    let (Some(updated_at), Some(agent), Some(key)) =
        (doc["u"].as_i64(), doc["a"].as_str(), doc["k"].as_str())
    else {
        return Err(bad());
    };
    let store = stores
        .iter()
        .position(|s| s.paths.id.as_str() == agent)
        .ok_or_else(|| {
            openclaw_sessions::Error::invalid(format!(
                "--after names a row of agent {agent}, which this listing does not include                  (give the same --agent/--all-agents as for the first page)"
            ))
        })?;
    Ok(Position {
        updated_at,
        store,
        key: key.to_string(),
    })
}

fn open_stores(
    ctx: &Ctx,
    agents: Vec<openclaw_sessions::paths::AgentPaths>,
) -> anyhow::Result<Vec<AgentStore>> {
    let mut stores = Vec::new();
    for paths in agents {
        let mut store = ctx.open_store(paths)?;
        // A listing reads each page about once (nodes newest first, counts in one walk):
        // 1 MiB a store is as fast as SQLite's 2 MB and keeps memory flat in the store's size.
        store.set_page_cache_kib(LISTING_PAGE_CACHE_KIB)?;
        ctx.flush_warnings(&mut store);
        stores.push(store);
    }
    Ok(stores)
}

/// The page cache of each store a listing reads.
const LISTING_PAGE_CACHE_KIB: u32 = 1024;

/// From how many rows a page counts events in one pass a store rather than a session at a
/// time.
const GROUPED_COUNT_FROM: usize = 1000;

/// `--json` newest first: the agents' rows merged as they are read and written as they
/// come, so memory stays flat however many sessions the stores hold. Past the limit the rest
/// is only counted (for `page.total`).
fn stream_json(
    ctx: &Ctx,
    stores: &[AgentStore],
    filter: &Filter<'_>,
    limit: Option<usize>,
    after: Option<&Position>,
    bytes: bool,
) -> anyhow::Result<Outcome> {
    // A long page counts every store's transcripts in one walk of the primary key (one
    // lookup a session costs more once most sessions are listed), on other cores while the
    // rows stream: a row whose store is not walked yet is counted on its own. Memory stays
    // bounded (EventCounts::CAP).
    let grouped = !bytes && limit.is_none_or(|n| n > GROUPED_COUNT_FROM);
    let walks: Vec<(usize, EventCountWalk)> = if grouped {
        let mut walks = Vec::new();
        for (index, store) in stores.iter().enumerate() {
            if let Some(walk) = store.event_count_walk()? {
                walks.push((index, walk));
            }
        }
        walks
    } else {
        Vec::new()
    };
    let counts: Vec<OnceLock<Option<EventCounts>>> =
        stores.iter().map(|_| OnceLock::new()).collect();
    let stop = AtomicBool::new(false);
    // The walks take the cores the streaming leaves (at least one).
    let workers = parallel::cores().saturating_sub(1).max(1);
    std::thread::scope(|scope| {
        if !walks.is_empty() {
            scope.spawn(|| {
                parallel::map_in_order(walks, workers, |(index, walk)| {
                    // A walk that fails leaves the store's rows to be counted one by one,
                    // where the same failure, if it is real, is reported.
                    let _ = counts[index].set(walk.run(&stop).ok().flatten());
                })
            });
        }
        let streamed = stream_rows(ctx, stores, &counts, filter, limit, after, bytes);
        stop.store(true, Ordering::Relaxed);
        streamed
    })
}

/// The rows of [`stream_json`], written as they are merged.
fn stream_rows(
    ctx: &Ctx,
    stores: &[AgentStore],
    counts: &[OnceLock<Option<EventCounts>>],
    filter: &Filter<'_>,
    limit: Option<usize>,
    after: Option<&Position>,
    bytes: bool,
) -> anyhow::Result<Outcome> {
    let mut out = ctx.printer.json_rows()?;
    let mut written = 0;
    let mut beyond = 0;
    let mut last: Option<Position> = None;
    let mut failed: Option<anyhow::Error> = None;
    let fields = Some(SessionEntry::LISTING_FIELDS);
    let warnings = for_each_newest_first_after(stores, fields, after, |store, entry| {
        if !filter.keeps(&entry) {
            return Ok(ControlFlow::Continue(()));
        }
        if limit.is_some_and(|n| written >= n) {
            beyond += 1;
            return Ok(ControlFlow::Continue(()));
        }
        let mut row = Row {
            store,
            entry,
            events: None,
            bytes: None,
        };
        fill(stores, counts, &mut row, bytes)?;
        if let Err(e) = push_row(&mut out, stores, &row) {
            failed = Some(e);
            return Ok(ControlFlow::Break(()));
        }
        written += 1;
        // The cursor names the page's last row, the only one whose place is kept.
        if limit == Some(written) {
            last = Some(Position {
                updated_at: row.entry.updated_at(),
                store,
                key: row.entry.key,
            });
        }
        Ok(ControlFlow::Continue(()))
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    for w in warnings {
        ctx.printer.warn(crate::cli::hints::warning(&w));
    }
    let page = Page {
        total: written + beyond,
        returned: written,
        next: last.filter(|_| beyond > 0).map(|p| cursor(stores, &p)),
    };
    out.finish_with(&[("page", page.json())])?;
    Ok(Outcome::Done)
}

/// The first `limit` rows in the order of `--sort` (its value newest/largest first; ties in
/// agent order, then key byte order, as OpenClaw lists them), held in a heap of at most
/// `limit` rows, so that a page of 100 costs the same at 1,000 or 1,000,000 sessions.
struct TopRows {
    limit: Option<usize>,
    heap: std::collections::BinaryHeap<Ranked>,
    /// Every row offered (the matching sessions).
    total: usize,
}

/// A row and its place: greater is later in the listing.
struct Ranked {
    value: i128,
    row: Row,
}

impl Ranked {
    fn rank(&self) -> (std::cmp::Reverse<i128>, usize, &str) {
        (
            std::cmp::Reverse(self.value),
            self.row.store,
            self.row.entry.key.as_str(),
        )
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.rank() == other.rank()
    }
}

impl Eq for Ranked {}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl TopRows {
    fn new(limit: Option<usize>) -> Self {
        TopRows {
            limit,
            heap: std::collections::BinaryHeap::new(),
            total: 0,
        }
    }

    fn offer(&mut self, value: i128, row: Row) {
        self.total += 1;
        let ranked = Ranked { value, row };
        match self.limit {
            Some(n) if self.heap.len() >= n => {
                // The heap's greatest is the last row of the page so far.
                if self.heap.peek().is_some_and(|last| ranked < *last) {
                    self.heap.pop();
                    self.heap.push(ranked);
                }
            }
            _ => self.heap.push(ranked),
        }
    }

    /// The page, in listing order.
    fn into_rows(self) -> Vec<Row> {
        self.heap
            .into_sorted_vec()
            .into_iter()
            .map(|r| r.row)
            .collect()
    }
}

pub(crate) fn parse_limit(raw: &str) -> openclaw_sessions::Result<Option<usize>> {
    if raw.eq_ignore_ascii_case("all") {
        return Ok(None);
    }
    match raw.parse::<usize>() {
        Ok(n) if n > 0 => Ok(Some(n)),
        _ => Err(openclaw_sessions::Error::invalid(format!(
            "--limit must be a positive integer or \"all\", not {raw:?}"
        ))),
    }
}

pub fn run(ctx: &Ctx, args: &ListArgs) -> anyhow::Result<Outcome> {
    // The tests' fixed clock when they set one.
    let now = openclaw_sessions::test_hooks::now_ms();
    let limit = parse_limit(&args.limit)?;
    let before = args
        .filters
        .updated_before
        .as_deref()
        .map(|t| parse_time_arg(t, now))
        .transpose()?;
    let after = args
        .filters
        .updated_after
        .as_deref()
        .map(|t| parse_time_arg(t, now))
        .transpose()?;
    let filter = Filter {
        args: &args.filters,
        now,
        before,
        after,
        needle: args.filters.matches.as_ref().map(|m| m.to_lowercase()),
    };
    let layout = ctx.layout()?;
    let agents = ctx.listed_agents(&layout)?;
    let newest_first = matches!(args.sort, SortKey::Updated);
    if args.after.is_some() && !newest_first {
        return Err(openclaw_sessions::Error::invalid(
            "--after pages the newest-first order only (leave out --sort, or give --sort updated)",
        )
        .into());
    }
    let stores = open_stores(ctx, agents)?;
    let after = args
        .after
        .as_deref()
        .map(|raw| position(&stores, raw))
        .transpose()?;
    if ctx.printer.json && newest_first {
        return stream_json(ctx, &stores, &filter, limit, after.as_ref(), args.bytes);
    }
    let want_bytes = args.bytes || !ctx.printer.json || matches!(args.sort, SortKey::Bytes);
    // The table reads only the fields it shows; `--json` prints each whole entry.
    let fields = (!ctx.printer.json).then_some(SessionEntry::LISTING_FIELDS);
    // Only the page is held (a bounded heap in the order of --sort), whatever the store's
    // size; the rest is counted for the footer.
    let mut top = TopRows::new(limit);
    for (index, store) in stores.iter().enumerate() {
        let warnings = store.for_each_session(fields, |mut entry| {
            if !filter.keeps(&entry)
                || !after
                    .as_ref()
                    .is_none_or(|p| p.precedes(index, entry.updated_at(), &entry.key))
            {
                return Ok(ControlFlow::Continue(()));
            }
            if fields.is_some() {
                // The table never prints the stored text.
                entry.stored_json = None;
            }
            let mut row = Row {
                store: index,
                entry,
                events: None,
                bytes: None,
            };
            let value = match args.sort {
                SortKey::Updated => i128::from(row.entry.updated_at()),
                SortKey::Created => i128::from(row.entry.created_at().unwrap_or(0)),
                SortKey::Events => {
                    fill(&stores, &[], &mut row, false)?;
                    i128::from(row.events.unwrap_or(0))
                }
                SortKey::Bytes => {
                    fill(&stores, &[], &mut row, true)?;
                    i128::from(row.bytes.unwrap_or(0))
                }
            };
            top.offer(value, row);
            Ok(ControlFlow::Continue(()))
        })?;
        for w in warnings {
            ctx.printer.warn(crate::cli::hints::warning(&w));
        }
    }
    let total = top.total;
    let mut rows = top.into_rows();
    for row in rows.iter_mut() {
        fill(&stores, &[], row, want_bytes)?;
    }
    // A cursor only where the order is a keyset (newest first).
    let next = rows
        .last()
        .filter(|_| total > rows.len() && newest_first)
        .map(|r| {
            cursor(
                &stores,
                &Position {
                    updated_at: r.entry.updated_at(),
                    store: r.store,
                    key: r.entry.key.clone(),
                },
            )
        });
    let page = Page {
        total,
        returned: rows.len(),
        next,
    };
    if ctx.printer.json {
        let mut out = ctx.printer.json_rows()?;
        for r in &rows {
            push_row(&mut out, &stores, r)?;
        }
        out.finish_with(&[("page", page.json())])?;
        return Ok(Outcome::Done);
    }
    // The columns of `--json`, in its order (agentId, sessionKey, sessionId, updatedAt,
    // category, label/displayName, archived/pinned/locked, harness, model, transcript). On a
    // terminal the agent, the key (bare beside its agent, when `--agent AGENT KEY` resolves
    // it) and the shortest unique session-id prefix identify a row and stay whole; the other
    // columns go, least useful first, when the terminal is narrower (src/cli/table.rs).
    let short = ctx.printer.short_identifiers();
    let several = stores.len() > 1;
    let agent_column = if several {
        Column::id("AGENT")
    } else {
        Column::data("AGENT").drop(0)
    };
    // UPDATED is kept with the identifiers (README.md, Tables).
    let mut t = ctx
        .printer
        .table(&[
            agent_column,
            Column::id("KEY"),
            Column::id("SESSION ID"),
            Column::data("UPDATED"),
            Column::data("CATEGORY").drop(4),
            Column::prose("LABEL").drop(8),
            Column::data("FLAGS").drop(6),
            Column::data("HARNESS").drop(1),
            Column::data("MODEL").drop(2),
            Column::data("EVENTS").drop(5),
            Column::data("BYTES").drop(3),
        ])
        .when_empty("no sessions match");
    let layout_for_keys = short.then_some(&layout);
    let store_refs: Vec<&AgentStore> = stores.iter().collect();
    for Row {
        store,
        entry: e,
        events,
        bytes,
    } in &rows
    {
        let paths = &stores[*store].paths;
        let mut flags = Vec::new();
        if e.archived() {
            flags.push("archived");
        }
        if e.pinned() {
            flags.push("pinned");
        }
        if e.locked() {
            flags.push("locked");
        }
        let key = layout_for_keys
            .and_then(|l| bare_key(l, &paths.id, &e.key))
            .unwrap_or(&e.key)
            .to_string();
        let id = if short {
            unique_id_prefix(&store_refs, e.session_id())?
        } else {
            e.session_id().to_string()
        };
        t.add_row(vec![
            paths.id.to_string(),
            key,
            id,
            format!("{} ago", format_age(now - e.updated_at())),
            e.kind().to_string(),
            e.label().or(e.display_name()).unwrap_or("").to_string(),
            flags.join(","),
            e.harness().unwrap_or("").to_string(),
            e.model().unwrap_or_default(),
            events.unwrap_or(0).to_string(),
            format_bytes(bytes.unwrap_or(0)),
        ]);
    }
    ctx.printer.print_table(&t)?;
    // The paging footer, after the table.
    if page.total > page.returned {
        ctx.printer.info(match &page.next {
            // The cursor on a line of its own: the words above it never wrap.
            Some(c) => format!(
                "showing {} of {} sessions (--limit all for every one); next page:\n--after {c}",
                page.returned, page.total
            ),
            None => format!(
                "showing {} of {} sessions (use --limit all)",
                page.returned, page.total
            ),
        });
    }
    Ok(Outcome::Done)
}
