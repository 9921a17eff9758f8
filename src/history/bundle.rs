//! `bundle export`: sessions of one agent written into one bundle (docs/BUNDLE.md), each entry
//! as OpenClaw holds it and every event of its transcript in `seq` order. Read-only, and
//! streamed: the store is read twice inside one read transaction (the first pass hashes each
//! session's members for the manifest that comes first, the second writes them and checks
//! they hash the same), one event in memory at a time.

use std::io::Write;
use std::ops::ControlFlow;

use serde::Serialize;

use crate::error::{Error, Result, ResultExt};
use crate::formats::bundle::{
    absolute_paths, BundleWriter, Manifest, Member, SessionDigest, SessionManifest, SourceManifest,
    FORMAT, FORMAT_VERSION,
};
use crate::store::db::nodes;
use crate::store::releases::{creating, DatabaseRole};
use crate::store::{AgentSchema, AgentStore};
use crate::transcript::TranscriptSource;

/// One session to export: its stored key and its current session id.
#[derive(Debug, Clone)]
pub struct ExportSession {
    pub key: String,
    pub session_id: String,
}

/// What was written.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportReport {
    pub manifest: Manifest,
    /// Bytes of the compressed bundle.
    pub bytes: u64,
}

struct Counting<W> {
    inner: W,
    bytes: u64,
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Visit a session's members (entry, then events in order).
fn for_each_member(
    store: &AgentStore,
    index: usize,
    s: &ExportSession,
    visit: &mut dyn FnMut(Member) -> Result<()>,
) -> Result<()> {
    let db = store
        .db()
        .ok_or_else(|| Error::Internal("no database".into()))?;
    let entry_json = nodes::entry_json(db.conn(), &s.key)
        .at(db.path())?
        .ok_or_else(|| Error::not_found(format!("session {} is gone", s.key), None))?;
    visit(Member::Entry {
        session: index,
        entry_json,
    })?;
    let source = TranscriptSource::for_session(store, &s.session_id)?;
    source.for_each(store, 0, &mut |ev| {
        visit(Member::Event {
            session: index,
            seq: ev.seq,
            event_json: ev.json,
        })?;
        Ok(ControlFlow::Continue(()))
    })
}

/// Write `sessions` of `store` as one bundle into `out`.
pub fn export_bundle<W: Write>(
    store: &AgentStore,
    sessions: &[ExportSession],
    out: W,
    created_by: &str,
    now_ms: i64,
) -> Result<ExportReport> {
    let Some(db) = store.db() else {
        return Err(Error::UnsupportedSchema {
            message: format!(
                "agent {} has only a legacy store (sessions.json)",
                store.paths.id
            ),
            hint: Some("import it first with the legacy import".into()),
        });
    };
    let schema = AgentSchema::of(db.conn()).at(db.path())?;
    // One read transaction: both passes see the same rows, even while a Gateway writes.
    db.conn().execute_batch("BEGIN").at(db.path())?;
    let result = (|| {
        let mut listed = Vec::with_capacity(sessions.len());
        for (i, s) in sessions.iter().enumerate() {
            let mut digest = SessionDigest::default();
            let mut paths = Vec::new();
            for_each_member(store, i, s, &mut |m| {
                if let Member::Entry { entry_json, .. } = &m {
                    let v: serde_json::Value =
                        crate::json_value::from_str(entry_json).unwrap_or_default();
                    paths = absolute_paths(&v);
                }
                digest.add(&m);
                Ok(())
            })?;
            let (sha256, events) = digest.finish();
            listed.push(SessionManifest {
                key: s.key.clone(),
                session_id: s.session_id.clone(),
                events,
                sha256,
                absolute_paths: paths,
            });
        }
        let manifest = Manifest {
            format: FORMAT.into(),
            format_version: FORMAT_VERSION,
            created_at: crate::units::iso_from_ms(now_ms),
            created_by: created_by.to_string(),
            source: SourceManifest {
                agent_id: store.paths.id.to_string(),
                agent_schema: schema.0,
                releases: creating(DatabaseRole::Agent, schema.0)
                    .iter()
                    .map(|r| r.version.to_string())
                    .collect(),
            },
            sessions: listed,
        };
        let io = |e: std::io::Error| Error::io("bundle", e);
        let mut w = BundleWriter::new(
            Counting {
                inner: out,
                bytes: 0,
            },
            &manifest,
        )
        .map_err(io)?;
        for (i, s) in sessions.iter().enumerate() {
            let mut digest = SessionDigest::default();
            for_each_member(store, i, s, &mut |m| {
                digest.add(&m);
                w.member(&m).map_err(io)
            })?;
            if digest.finish().0 != manifest.sessions[i].sha256 {
                return Err(Error::Conflict {
                    message: format!("session {} changed while it was exported", s.key),
                    hint: Some("run the export again".into()),
                });
            }
        }
        let mut counted = w.finish().map_err(io)?;
        counted.flush().map_err(io)?;
        Ok(ExportReport {
            manifest,
            bytes: counted.bytes,
        })
    })();
    let _ = db.conn().execute_batch("COMMIT");
    result
}
