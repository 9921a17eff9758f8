//! `search QUERY`: full-text search through OpenClaw's FTS5 index, and with `--archived`
//! through every archive (`openclaw_sessions::history::search`).

use clap::Args;

use std::ops::ControlFlow;

use openclaw_sessions::history::for_each_archive;
use openclaw_sessions::history::search::{
    plain_words_query, search_live, ArchiveSearch, Hits, SearchRequest,
};
use openclaw_sessions::units::{iso_from_ms, now_ms, parse_time_arg};

use crate::cli::exit::Outcome;
use crate::cli::printer::TableFormat;
use crate::cli::shown::value;
use crate::cli::table::Column;
use crate::cli::Ctx;

/// Snippet highlight markers (Markdown bold), the same in text and JSON output.
const OPEN: &str = "**";
const CLOSE: &str = "**";

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RoleArg {
    User,
    Assistant,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OrderArg {
    /// Best match first (bm25), then newest.
    Best,
    /// Newest first.
    Recent,
}

#[derive(Debug, Args)]
#[command(
    after_help = "QUERY is words as you type them: a message matches when it holds every word, matched by \
OpenClaw's own index and tokenizer (unicode61, case and diacritics ignored; punctuation such as # or : \
separates words). With --fts, QUERY is an FTS5 query instead: \"a phrase\", prefix*, AND / OR / NOT, \
NEAR(a b, 5). An agent whose sessions are still in a legacy sessions.json has no index: it is named, \
and nothing of it is searched (but its archives, with --archived)."
)]
pub struct SearchArgs {
    /// The words to find (every one must be in the message); with --fts, an FTS5 query.
    #[arg(value_name = "QUERY")]
    query: String,
    /// Also search archived transcripts (deleted, reset, imported, cold).
    #[arg(long)]
    archived: bool,
    /// Only messages at or after this time: an age (`7d`, `1w2d`), a date, an RFC 3339 instant,
    /// or epoch time with its unit (`@1780351215000ms`).
    #[arg(long, value_name = "TIME")]
    since: Option<String>,
    /// Only messages of this role.
    #[arg(long, value_enum)]
    role: Option<RoleArg>,
    /// At most N hits (default 20).
    #[arg(long, value_name = "N", default_value_t = 20)]
    limit: usize,
    /// QUERY is FTS5 query syntax ("a phrase", prefix*, AND/OR/NOT, NEAR), not plain words.
    #[arg(long)]
    fts: bool,
    /// Best match first, or newest first.
    #[arg(long, value_enum, default_value_t = OrderArg::Best)]
    order: OrderArg,
    #[command(flatten)]
    pub output: crate::cli::context::TableOutput,
}

pub fn run(ctx: &Ctx, args: &SearchArgs) -> anyhow::Result<Outcome> {
    if args.query.trim().is_empty() {
        return Err(openclaw_sessions::Error::InvalidArgument {
            message: "the query is empty".into(),
            hint: None,
        }
        .into());
    }
    if args.limit == 0 {
        return Err(openclaw_sessions::Error::InvalidArgument {
            message: "--limit must be at least 1".into(),
            hint: None,
        }
        .into());
    }
    let since = args
        .since
        .as_deref()
        .map(|s| parse_time_arg(s, now_ms()))
        .transpose()?;
    let query = if args.fts {
        args.query.clone()
    } else {
        plain_words_query(&args.query).ok_or_else(|| openclaw_sessions::Error::InvalidArgument {
            message: format!("{:?} holds no word to search for", args.query),
            hint: Some("words are letters and digits; --fts takes FTS5 query syntax".into()),
        })?
    };
    let req = SearchRequest {
        query,
        role: args.role.map(|r| match r {
            RoleArg::User => "user".to_string(),
            RoleArg::Assistant => "assistant".to_string(),
        }),
        since,
        recent_first: args.order == OrderArg::Recent,
        limit: args.limit,
        open: OPEN.into(),
        close: CLOSE.into(),
    };
    let layout = ctx.layout()?;
    let mut hits = Hits::new(&req);
    // Archives are visited one at a time, in each agent's stable order, and searched in
    // batches (`ArchiveSearch`): neither their list nor their messages are ever all held.
    let mut archived = if args.archived {
        Some(ArchiveSearch::new(&req)?)
    } else {
        None
    };
    // Agents without an index (a legacy sessions.json waiting for import): nothing of their
    // live sessions was searched, which "no matches" must not hide.
    let mut not_searched: Vec<String> = Vec::new();
    let mut searched_any = args.archived;
    for paths in ctx.listed_agents(&layout)? {
        let store = ctx.open_store(paths)?;
        if search_live(&store, &req, &mut hits)? {
            searched_any = true;
        } else {
            let id = store.paths.id.to_string();
            ctx.printer.warn(format!(
                "agent {id} has no search index (its sessions are in a legacy sessions.json): its sessions were not searched; import them with {}",
                crate::cli::hints::import_legacy()
            ));
            not_searched.push(id);
        }
        if let Some(batch) = archived.as_mut() {
            let mut failed: Option<openclaw_sessions::Error> = None;
            for_each_archive(&store, &mut |archive| {
                match batch.add(&store, &archive, &mut hits) {
                    Ok(None) => {}
                    Ok(Some(e)) => ctx.printer.warn(format!(
                        "archive {} of agent {} was not searched: {e}",
                        archive.name, archive.agent_id
                    )),
                    Err(e) => {
                        failed = Some(e);
                        return ControlFlow::Break(());
                    }
                }
                ControlFlow::Continue(())
            })?;
            if let Some(e) = failed {
                return Err(e.into());
            }
        }
    }
    if let Some(batch) = archived {
        batch.finish(&mut hits)?;
    }
    if ctx.printer.json {
        ctx.printer.json_data(&serde_json::json!({
            "query": args.query,
            "fts": req.query,
            "hits": hits.hits,
            "truncated": hits.truncated,
            "notSearched": not_searched,
        }))?;
        return Ok(Outcome::Done);
    }
    // `-o tsv|jsonl`: one row a hit, every cell whole, for scripts (as the other list
    // commands print theirs).
    if matches!(args.output.format, TableFormat::Tsv | TableFormat::Jsonl) {
        let mut t = ctx.printer.table(&[
            Column::id("AGENT"),
            Column::id("KEY"),
            Column::id("SESSION ID"),
            Column::data("SEQ"),
            Column::data("ROLE"),
            Column::data("TIME"),
            Column::id("ARCHIVE"),
            Column::prose("SNIPPET"),
        ]);
        for h in &hits.hits {
            t.add_row(vec![
                h.agent_id.clone(),
                h.session_key.clone().unwrap_or_else(|| "-".into()),
                h.session_id.clone(),
                h.seq.map(|s| s.to_string()).unwrap_or_else(|| "-".into()),
                h.role.clone(),
                iso_from_ms(h.timestamp),
                h.archive.clone().unwrap_or_else(|| "-".into()),
                h.snippet.clone(),
            ]);
        }
        ctx.printer.print_table(&t)?;
        if hits.hits.is_empty() {
            ctx.printer.info(if searched_any {
                "no matches"
            } else {
                "nothing was searched: no agent selected has a search index"
            });
        }
        if hits.truncated {
            ctx.printer.info(format!(
                "more matches; showing the first {} (--limit)",
                args.limit
            ));
        }
        return Ok(Outcome::Done);
    }
    if hits.hits.is_empty() {
        if searched_any {
            ctx.printer.info("no matches");
        } else {
            ctx.printer
                .info("nothing was searched: no agent selected has a search index");
        }
        return Ok(Outcome::Done);
    }
    let mut text = String::new();
    for h in &hits.hits {
        let seq = h.seq.map(|s| format!("#{s}")).unwrap_or_default();
        let key = value(h.session_key.as_deref().unwrap_or("-"));
        text += &format!(
            "{} {key} {}{seq} {} {}",
            value(&h.agent_id),
            value(&h.session_id),
            value(&h.role),
            iso_from_ms(h.timestamp)
        );
        if let Some(a) = &h.archive {
            text += &format!(" (archive {})", value(a));
        }
        // A snippet is one line: its newlines read as spaces, every other control escaped,
        // cut at its end to a terminal's width; the line above it (agent, key, id) is whole.
        let snippet = format!("    {}", value(&h.snippet.replace('\n', " ")));
        text += &format!("\n{}\n", ctx.printer.fit_prose(&snippet));
    }
    ctx.printer.out(&text)?;
    if hits.truncated {
        ctx.printer.info(format!(
            "more matches; showing the first {} (--limit)",
            args.limit
        ));
    }
    Ok(Outcome::Done)
}
