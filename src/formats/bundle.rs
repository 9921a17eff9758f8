//! The session bundle container (docs/BUNDLE.md): one zstd stream (with zstd's own content
//! checksum) of JSON Lines. The first line is the manifest, then each session's members in
//! the manifest's order (its entry, then every event of its transcript in `seq` order), and
//! last an `end` line with the sha256 of every line before it. Each session's member lines
//! have their own sha256 in the manifest. Written and read one line at a time: memory stays
//! bounded by the largest line.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::{Error, Result, ResultExt};

/// The `format` every bundle's manifest names.
pub const FORMAT: &str = "openclaw-sessions-bundle";
/// The newest container version this build reads and the one it writes.
pub const FORMAT_VERSION: u64 = 1;
/// The longest line read (an event with inline media can be large; a bundle is refused
/// rather than read into memory without a bound).
pub const MAX_LINE_BYTES: u64 = 512 << 20;

/// What the manifest says about one session.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct SessionManifest {
    /// The key as the source stored it.
    pub key: String,
    pub session_id: String,
    /// Events of its transcript in the bundle.
    pub events: u64,
    /// sha256 of the session's member lines (entry and events, each with its newline).
    pub sha256: String,
    /// Absolute paths of the source machine found in the entry (a JSON pointer and the value):
    /// they are carried as they are and may name nothing on another host.
    #[serde(default)]
    pub absolute_paths: Vec<AbsolutePath>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct AbsolutePath {
    pub pointer: String,
    pub value: String,
}

/// Where the sessions came from.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct SourceManifest {
    pub agent_id: String,
    /// `user_version` of the agent database.
    pub agent_schema: i64,
    /// The OpenClaw releases that create a database of that schema.
    pub releases: Vec<String>,
}

/// The first line of a bundle.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    pub format: String,
    pub format_version: u64,
    pub created_at: String,
    /// The tool and its version that wrote the bundle.
    pub created_by: String,
    pub source: SourceManifest,
    pub sessions: Vec<SessionManifest>,
}

/// One line after the manifest.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Member {
    /// The session's entry, as OpenClaw holds it (`entry_json`, byte for byte).
    Entry { session: usize, entry_json: String },
    /// One transcript event, as OpenClaw stored it (the event JSON text).
    Event {
        session: usize,
        seq: i64,
        event_json: String,
    },
}

impl Member {
    pub fn session(&self) -> usize {
        match self {
            Member::Entry { session, .. } | Member::Event { session, .. } => *session,
        }
    }
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct End {
    #[serde(rename = "type")]
    kind: String,
    lines: u64,
    sha256: String,
}

/// A member as the line written for it (with its newline).
pub fn member_line(member: &Member) -> Vec<u8> {
    let mut line = serde_json::to_vec(member).expect("a member serialises");
    line.push(b'\n');
    line
}

/// The sha256 of a session's member lines, fed one member at a time (the export's first pass).
#[derive(Default)]
pub struct SessionDigest {
    hasher: Sha256,
    pub events: u64,
}

impl SessionDigest {
    pub fn add(&mut self, member: &Member) {
        if matches!(member, Member::Event { .. }) {
            self.events += 1;
        }
        self.hasher.update(member_line(member));
    }

    pub fn finish(self) -> (String, u64) {
        (crate::units::hex(&self.hasher.finalize()), self.events)
    }
}

/// Writes a bundle: the manifest, the members, then the end line.
pub struct BundleWriter<W: Write> {
    out: zstd::stream::write::Encoder<'static, W>,
    whole: Sha256,
    lines: u64,
}

impl<W: Write> BundleWriter<W> {
    pub fn new(out: W, manifest: &Manifest) -> std::io::Result<Self> {
        let mut enc = zstd::stream::write::Encoder::new(out, 3)?;
        enc.include_checksum(true)?;
        let mut w = BundleWriter {
            out: enc,
            whole: Sha256::new(),
            lines: 0,
        };
        let mut line =
            serde_json::to_vec(&ManifestLine::of(manifest)).map_err(std::io::Error::other)?;
        line.push(b'\n');
        w.write_line(&line)?;
        Ok(w)
    }

    fn write_line(&mut self, line: &[u8]) -> std::io::Result<()> {
        self.whole.update(line);
        self.lines += 1;
        self.out.write_all(line)
    }

    pub fn member(&mut self, member: &Member) -> std::io::Result<()> {
        self.write_line(&member_line(member))
    }

    /// The end line; returns the inner writer.
    pub fn finish(mut self) -> std::io::Result<W> {
        let end = End {
            kind: "end".into(),
            lines: self.lines,
            sha256: crate::units::hex(&self.whole.clone().finalize()),
        };
        let mut line = serde_json::to_vec(&end).map_err(std::io::Error::other)?;
        line.push(b'\n');
        self.out.write_all(&line)?;
        self.out.finish()
    }
}

/// The manifest line: the manifest with its `type`.
#[derive(Serialize)]
struct ManifestLine<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(flatten)]
    manifest: &'a Manifest,
}

impl<'a> ManifestLine<'a> {
    fn of(manifest: &'a Manifest) -> Self {
        ManifestLine {
            kind: "manifest",
            manifest,
        }
    }
}

fn refused(path: &Path, why: impl std::fmt::Display) -> Error {
    Error::bad_input(
        format!("bundle {} does not verify: {why}", path.display()),
        Some("nothing was changed; export the bundle again from its source".to_string()),
    )
}

/// One line of the decompressed stream, without its newline; `None` at the end of the stream.
fn next_line(path: &Path, r: &mut impl BufRead, buf: &mut Vec<u8>) -> Result<Option<()>> {
    buf.clear();
    let n = r
        .by_ref()
        .take(MAX_LINE_BYTES + 1)
        .read_until(b'\n', buf)
        .map_err(|e| refused(path, format!("its compressed stream does not decode ({e})")))?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() != Some(&b'\n') {
        if n as u64 > MAX_LINE_BYTES {
            return Err(refused(path, "a line is longer than 512 MiB"));
        }
        return Err(refused(path, "it ends in the middle of a line (truncated)"));
    }
    Ok(Some(()))
}

/// Read a bundle's manifest alone (first line), refusing another format or a newer version.
fn parse_manifest(path: &Path, line: &[u8]) -> Result<Manifest> {
    let v: serde_json::Value = serde_json::from_slice(line)
        .map_err(|e| refused(path, format!("its first line is not a manifest ({e})")))?;
    if v.get("type").and_then(|t| t.as_str()) != Some("manifest")
        || v.get("format").and_then(|t| t.as_str()) != Some(FORMAT)
    {
        return Err(refused(
            path,
            "its first line is not a session bundle's manifest",
        ));
    }
    match v.get("formatVersion").and_then(|t| t.as_u64()) {
        Some(n) if n > FORMAT_VERSION => {
            return Err(Error::UnsupportedSchema {
                message: format!(
                    "bundle {} is of format version {n}; this build reads up to {FORMAT_VERSION}",
                    path.display()
                ),
                hint: Some(
                    "nothing was changed; import it with a newer openclaw-sessions".to_string(),
                ),
            })
        }
        Some(_) => {}
        None => return Err(refused(path, "its manifest has no formatVersion")),
    }
    let m: Manifest = serde_json::from_value(v)
        .map_err(|e| refused(path, format!("its manifest does not read ({e})")))?;
    Ok(m)
}

/// Read the bundle at `path` to its end, checking everything: the manifest (format and
/// version), each session's members in order and their sha256 and counts, the end line's
/// line count and sha256, nothing after it, and zstd's checksum. `visit` sees each member as
/// it is read; an error from the checks may come after the last member was visited, so a
/// caller that writes what it sees commits only when this returns `Ok`.
pub fn read_bundle(
    path: &Path,
    mut visit: impl FnMut(&Manifest, Member) -> Result<()>,
) -> Result<Manifest> {
    let file = crate::fsutil::open_regular(path)?;
    let dec = zstd::stream::read::Decoder::new(file).at(path)?;
    let mut r = BufReader::with_capacity(1 << 16, dec);
    let mut buf = Vec::new();
    let mut whole = Sha256::new();
    if next_line(path, &mut r, &mut buf)?.is_none() {
        return Err(refused(path, "it is empty"));
    }
    let manifest = parse_manifest(path, &buf)?;
    whole.update(&buf);
    let mut lines = 1u64;
    // The session being read, its digest, whether its entry was seen, its last seq.
    let mut current: Option<(usize, SessionDigest, Option<i64>)> = None;
    let mut next_session = 0usize;
    let close = |path: &Path,
                 manifest: &Manifest,
                 cur: Option<(usize, SessionDigest, Option<i64>)>|
     -> Result<()> {
        if let Some((i, digest, _)) = cur {
            let s = &manifest.sessions[i];
            let (sha, events) = digest.finish();
            if events != s.events {
                return Err(refused(
                    path,
                    format!(
                        "session {} holds {events} events, its manifest says {}",
                        s.key, s.events
                    ),
                ));
            }
            if sha != s.sha256 {
                return Err(refused(
                    path,
                    format!("session {} does not match its sha256", s.key),
                ));
            }
        }
        Ok(())
    };
    loop {
        if next_line(path, &mut r, &mut buf)?.is_none() {
            return Err(refused(path, "it has no end line (truncated)"));
        }
        let v: serde_json::Value = serde_json::from_slice(&buf)
            .map_err(|e| refused(path, format!("line {} is not JSON ({e})", lines + 1)))?;
        if v.get("type").and_then(|t| t.as_str()) == Some("end") {
            let end: End = serde_json::from_value(v)
                .map_err(|e| refused(path, format!("its end line does not read ({e})")))?;
            close(path, &manifest, current.take())?;
            if next_session != manifest.sessions.len() {
                return Err(refused(
                    path,
                    format!(
                        "it holds {next_session} of the {} sessions its manifest lists",
                        manifest.sessions.len()
                    ),
                ));
            }
            let sha = crate::units::hex(&whole.finalize());
            if end.lines != lines || end.sha256 != sha {
                return Err(refused(path, "its sha256 does not match its end line"));
            }
            // Nothing after the end line (a second stream appended, a stray byte).
            buf.clear();
            let extra = r.read_to_end(&mut buf).map_err(|e| {
                refused(path, format!("its compressed stream does not decode ({e})"))
            })?;
            if extra != 0 {
                return Err(refused(path, "it has data after its end line"));
            }
            return Ok(manifest);
        }
        whole.update(&buf);
        lines += 1;
        let member: Member = serde_json::from_value(v)
            .map_err(|e| refused(path, format!("line {lines} is not a member ({e})")))?;
        let i = member.session();
        match (&member, &mut current) {
            (Member::Entry { .. }, cur) => {
                if i != next_session || i >= manifest.sessions.len() {
                    return Err(refused(
                        path,
                        format!("line {lines}: session {i} out of order"),
                    ));
                }
                close(path, &manifest, cur.take())?;
                next_session += 1;
                *cur = Some((i, SessionDigest::default(), None));
            }
            (Member::Event { seq, .. }, Some((j, _, last))) if *j == i => {
                if last.is_some_and(|l| l >= *seq) {
                    return Err(refused(path, format!("line {lines}: events out of order")));
                }
                *last = Some(*seq);
            }
            (Member::Event { .. }, _) => {
                return Err(refused(
                    path,
                    format!("line {lines}: an event before its entry"),
                ));
            }
        }
        if let Some((_, digest, _)) = &mut current {
            digest.add(&member);
        }
        visit(&manifest, member)?;
    }
}

/// Check a bundle to its end without keeping anything; its manifest.
pub fn verify_bundle(path: &Path) -> Result<Manifest> {
    read_bundle(path, |_, _| Ok(()))
}

/// Absolute paths in an entry (strings that start with `/`, `~/` or a drive letter), with the
/// JSON pointer of each.
pub fn absolute_paths(entry: &serde_json::Value) -> Vec<AbsolutePath> {
    fn walk(v: &serde_json::Value, pointer: &mut String, out: &mut Vec<AbsolutePath>) {
        match v {
            serde_json::Value::String(s) => {
                let b = s.as_bytes();
                let drive = b.len() > 2
                    && b[0].is_ascii_alphabetic()
                    && b[1] == b':'
                    && (b[2] == b'\\' || b[2] == b'/');
                if (s.starts_with('/') && !s.starts_with("//")) || s.starts_with("~/") || drive {
                    out.push(AbsolutePath {
                        pointer: pointer.clone(),
                        value: s.clone(),
                    });
                }
            }
            serde_json::Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    let len = pointer.len();
                    pointer.push_str(&format!("/{i}"));
                    walk(x, pointer, out);
                    pointer.truncate(len);
                }
            }
            serde_json::Value::Object(m) => {
                for (k, x) in m {
                    let len = pointer.len();
                    pointer.push('/');
                    pointer.push_str(&k.replace('~', "~0").replace('/', "~1"));
                    walk(x, pointer, out);
                    pointer.truncate(len);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(entry, &mut String::new(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (Manifest, Vec<Member>) {
        let members = vec![
            Member::Entry {
                session: 0,
                entry_json: r#"{"sessionId":"a","updatedAt":1}"#.into(),
            },
            Member::Event {
                session: 0,
                seq: 0,
                event_json: r#"{"type":"session","id":"a"}"#.into(),
            },
        ];
        let mut d = SessionDigest::default();
        for m in &members {
            d.add(m);
        }
        let (sha256, events) = d.finish();
        let manifest = Manifest {
            format: FORMAT.into(),
            format_version: FORMAT_VERSION,
            created_at: "2026-12-06T00:00:00.000Z".into(),
            created_by: "test".into(),
            source: SourceManifest {
                agent_id: "main".into(),
                agent_schema: 23,
                releases: vec!["2026.9.6".into()],
            },
            sessions: vec![SessionManifest {
                key: "agent:main:x".into(),
                session_id: "a".into(),
                events,
                sha256,
                absolute_paths: vec![],
            }],
        };
        (manifest, members)
    }

    fn write(dir: &Path, manifest: &Manifest, members: &[Member]) -> std::path::PathBuf {
        let path = dir.join("b.bundle");
        let f = std::fs::File::create(&path).unwrap();
        let mut w = BundleWriter::new(f, manifest).unwrap();
        for m in members {
            w.member(m).unwrap();
        }
        w.finish().unwrap();
        path
    }

    #[test]
    fn a_written_bundle_reads_back_member_for_member() {
        let dir = tempfile::tempdir().unwrap();
        let (manifest, members) = sample();
        let path = write(dir.path(), &manifest, &members);
        let mut seen = Vec::new();
        let m = read_bundle(&path, |_, member| {
            seen.push(member);
            Ok(())
        })
        .unwrap();
        assert_eq!(m, manifest);
        assert_eq!(seen, members);
    }

    #[test]
    fn a_wrong_count_or_a_missing_session_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (mut manifest, members) = sample();
        manifest.sessions[0].events = 2;
        let path = write(dir.path(), &manifest, &members);
        let e = verify_bundle(&path).unwrap_err().to_string();
        assert!(e.contains("holds 1 events"), "{e}");
        let (manifest, _) = sample();
        std::fs::remove_file(&path).unwrap();
        let path = write(dir.path(), &manifest, &[]);
        let e = verify_bundle(&path).unwrap_err().to_string();
        assert!(e.contains("0 of the 1 sessions"), "{e}");
    }

    #[test]
    fn absolute_paths_are_found_with_their_pointers() {
        let v = serde_json::json!({"a": "/home/user/x", "b": ["rel", "C:\\x"], "c/d": {"e": "~/y"}, "u": "//net"});
        let found: Vec<String> = absolute_paths(&v)
            .into_iter()
            .map(|p| format!("{}={}", p.pointer, p.value))
            .collect();
        assert_eq!(found, ["/a=/home/user/x", "/b/1=C:\\x", "/c~1d/e=~/y"]);
    }
}
