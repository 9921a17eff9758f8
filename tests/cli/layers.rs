//! The library's layering, read from the source: which top-level modules each top-level
//! module imports (`crate::x`, `super::super::x`, `openclaw_sessions::x` in the binary), with
//! `#[cfg(test)]` items left out. The module graph must have no cycle and every import must go
//! to a lower rank (or to the same rank, acyclically). Inside a module directory (`src/store/`,
//! `src/migrate/import/`, ...) the files must not import one another in a circle either.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Each top-level module's rank: a module imports only modules of a lower rank, or of its own
/// rank when that makes no cycle, except the peers (`PEERS`), which import none of one
/// another. A module missing here fails the test: give it a rank.
const RANKS: &[(&str, u8)] = &[
    // The binary (`src/main.rs`, `src/cli/`): it talks, the library does not.
    ("cli", 8),
    // Operations the binary runs: plan, pipeline, apply. `fuzzing` drives the fuzz targets
    // through the readers and the importer, and nothing in the library imports it.
    ("ops", 7),
    ("fuzzing", 7),
    // The command engines: peers (see PEERS).
    ("migrate", 6),
    ("backup", 6),
    ("doctor", 6),
    ("mutate", 6),
    // OpenClaw's writer: every row written into OpenClaw's databases, for every engine above.
    ("writer", 5),
    // Read-only reports of a store and its files: disk use, status (schemas, releases, import
    // runs, the acpx marker), archived transcripts found and read wherever they are.
    ("du", 5),
    ("status", 5),
    ("oplog", 5),
    ("history", 5),
    ("secrets", 5),
    // Reading stores, transcripts and who holds a store; the Gateway that holds one, reached
    // through its RPC.
    ("transcript", 4),
    ("custody", 4),
    ("gateway", 4),
    ("store", 4),
    // Where things are: the state dir, config, agents and their files.
    ("paths", 3),
    // Formats and helpers with no knowledge of the layout.
    ("error", 1),
    ("units", 1),
    ("json_value", 1),
    ("fsutil", 1),
    ("digest", 1),
    ("formats", 1),
    ("legacy", 1),
    ("marker", 1),
    ("progress", 1),
    // Whether the caller asked a run to stop: one flag handed down.
    ("interruption", 1),
    ("streamed", 1),
    // The system calls that rustix and signal-hook do not wrap: the crate's only `unsafe`.
    ("sys", 1),
    ("remedy", 1),
    // Work spread over the cores, in the items' order.
    ("parallel", 1),
    // Crash points, a fixed clock and batch sizes: no-ops outside test builds.
    ("test_hooks", 1),
];

/// The command engines: each builds on the writer and the readers below it and imports none
/// of the others, so a change to one cannot reach into another; what two of them need in
/// common belongs in a lower layer.
const PEERS: &[&str] = &["migrate", "backup", "doctor", "mutate"];

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Path,
    Punct(char),
}

/// Tokens of Rust source without comments, string and character literals.
fn tokens(src: &str) -> Vec<Tok> {
    let c: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if ch == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if (ch == 'r' || (ch == 'b' && c.get(i + 1) == Some(&'r')))
            && matches!(
                c.get(i + if ch == 'b' { 2 } else { 1 }),
                Some('"') | Some('#')
            )
            && (i == 0 || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_'))
        {
            // A raw string: r"…", r#"…"#, br"…".
            i += if ch == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while c.get(i) == Some(&'#') {
                hashes += 1;
                i += 1;
            }
            if c.get(i) != Some(&'"') {
                continue;
            }
            i += 1;
            loop {
                if i >= c.len() {
                    break;
                }
                if c[i] == '"' && (1..=hashes).all(|k| c.get(i + k) == Some(&'#')) {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
        } else if ch == '\'' {
            // A character literal ('x', '\n', '\u{1F}'), else a lifetime.
            if c.get(i + 1) == Some(&'\\') {
                i += 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
        } else if ch.is_alphabetic() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push(Tok::Ident(c[start..i].iter().collect()));
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push(Tok::Path);
            i += 2;
        } else {
            if !ch.is_whitespace() {
                out.push(Tok::Punct(ch));
            }
            i += 1;
        }
    }
    out
}

/// The tokens with every `#[cfg(test)]` item (a test module, a test-only import) removed.
fn without_tests(toks: Vec<Tok>) -> Vec<Tok> {
    let cfg_test: Vec<Tok> = tokens("#[cfg(test)]");
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i..].starts_with(&cfg_test) {
            i += cfg_test.len();
            // Further attributes, then the item up to its `;` or its closing brace.
            let mut depth = 0i32;
            while i < toks.len() {
                match &toks[i] {
                    Tok::Punct('(' | '[') => depth += 1,
                    Tok::Punct(')' | ']') => depth -= 1,
                    Tok::Punct(';') if depth == 0 => {
                        i += 1;
                        break;
                    }
                    Tok::Punct('{') if depth == 0 => {
                        let mut braces = 0;
                        while i < toks.len() {
                            match toks[i] {
                                Tok::Punct('{') => braces += 1,
                                Tok::Punct('}') => braces -= 1,
                                _ => {}
                            }
                            i += 1;
                            if braces == 0 {
                                break;
                            }
                        }
                        break;
                    }
                    _ => {}
                }
                i += 1;
            }
        } else {
            out.push(toks[i].clone());
            i += 1;
        }
    }
    out
}

/// The paths at `toks[*i]` (one, or several through `{…}` groups), as their segments.
fn parse_path(toks: &[Tok], i: &mut usize) -> Vec<Vec<String>> {
    let mut prefix = Vec::new();
    loop {
        match toks.get(*i) {
            Some(Tok::Ident(s)) => {
                prefix.push(s.clone());
                *i += 1;
            }
            Some(Tok::Punct('{')) => {
                *i += 1;
                let mut out = Vec::new();
                loop {
                    match toks.get(*i) {
                        None => return out,
                        Some(Tok::Punct('}')) => {
                            *i += 1;
                            return out;
                        }
                        Some(Tok::Punct(',')) => *i += 1,
                        Some(Tok::Ident(_) | Tok::Punct('{')) => {
                            for tail in parse_path(toks, i) {
                                out.push(prefix.iter().cloned().chain(tail).collect());
                            }
                            // `as alias`, `*` and the like: skip to the next item.
                            while !matches!(toks.get(*i), None | Some(Tok::Punct(',' | '}'))) {
                                *i += 1;
                            }
                        }
                        Some(_) => *i += 1,
                    }
                }
            }
            _ => return vec![prefix],
        }
        if toks.get(*i) == Some(&Tok::Path) {
            *i += 1;
        } else {
            return vec![prefix];
        }
    }
}

/// Every path a file names (its imports and qualified uses), as written.
fn paths_in(src: &str) -> Vec<Vec<String>> {
    let toks = without_tests(tokens(src));
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let starts = matches!(toks[i], Tok::Ident(_)) && (i == 0 || toks[i - 1] != Tok::Path);
        if starts && toks.get(i + 1) == Some(&Tok::Path) {
            out.extend(parse_path(&toks, &mut i));
        } else {
            i += 1;
        }
    }
    out
}

/// A library module's path from the crate root (`src/a/b.rs` and `src/a/b/mod.rs` are `a::b`).
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// A path resolved against the module it is written in: `None` when it leaves the crate
/// (`std::`, a dependency) or cannot be told apart from a local name.
fn resolve(module: &[String], path: &[String], binary: bool) -> Option<Vec<String>> {
    let (first, rest) = path.split_first()?;
    match first.as_str() {
        "openclaw_sessions" if binary => Some(rest.to_vec()),
        "crate" if !binary => Some(rest.to_vec()),
        "super" | "self" if !binary => {
            let mut cur = module.to_vec();
            let mut segs = path.iter().peekable();
            while let Some(s) = segs.peek() {
                match s.as_str() {
                    "super" => {
                        cur.pop()?;
                    }
                    "self" => {}
                    _ => break,
                }
                segs.next();
            }
            cur.extend(segs.cloned());
            Some(cur)
        }
        _ => None,
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The first cycle of a graph, as the modules around it.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(n.to_string(), 1);
        stack.push(n.to_string());
        for m in graph.get(n).into_iter().flatten() {
            match state.get(m.as_str()) {
                Some(1) => {
                    let at = stack.iter().position(|s| s == m).unwrap();
                    let mut cycle = stack[at..].to_vec();
                    cycle.push(m.clone());
                    return Some(cycle);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(m, graph, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in graph.keys() {
        if !state.contains_key(n.as_str()) {
            if let Some(c) = visit(n, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

/// Top-level module imports, each edge with a file that makes it.
fn module_graph() -> BTreeMap<String, BTreeMap<String, PathBuf>> {
    let src = Path::new(ROOT).join("src");
    let tops: BTreeSet<String> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() || p.extension().is_some_and(|x| x == "rs"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|n| n != "lib" && n != "main")
        .collect();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut graph: BTreeMap<String, BTreeMap<String, PathBuf>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap().to_path_buf();
        let binary = rel.starts_with("cli") || rel == Path::new("main.rs");
        let module = module_of(&rel);
        let Some(top) = (if binary {
            Some("cli".to_string())
        } else {
            module.first().cloned()
        }) else {
            continue; // lib.rs: the crate root declares the modules.
        };
        let text = std::fs::read_to_string(&file).unwrap();
        for path in paths_in(&text) {
            let Some(to) = resolve(&module, &path, binary).and_then(|p| p.first().cloned()) else {
                continue;
            };
            if to != top && tops.contains(&to) {
                graph
                    .entry(top.clone())
                    .or_default()
                    .entry(to)
                    .or_insert_with(|| rel.clone());
            }
        }
    }
    graph
}

#[test]
fn top_level_modules_follow_the_layers_without_cycles() {
    let ranks: BTreeMap<&str, u8> = RANKS.iter().copied().collect();
    let graph = module_graph();
    assert!(
        graph.contains_key("cli") && graph.contains_key("store"),
        "the module scan found too little: {graph:?}"
    );
    let mut problems = Vec::new();
    for (from, tos) in &graph {
        for (to, file) in tos {
            match (ranks.get(from.as_str()), ranks.get(to.as_str())) {
                (Some(a), Some(b)) if a < b => problems.push(format!(
                    "{from} (rank {a}) imports {to} (rank {b}), in src/{}",
                    file.display()
                )),
                _ if PEERS.contains(&from.as_str()) && PEERS.contains(&to.as_str()) => {
                    problems.push(format!(
                        "{from} imports its peer {to}, in src/{} (peers import none of one another: move what both need below them)",
                        file.display()
                    ))
                }
                (None, _) => problems.push(format!("{from} has no rank in RANKS")),
                (_, None) => problems.push(format!("{to} has no rank in RANKS")),
                _ => {}
            }
        }
    }
    let names: BTreeMap<String, BTreeSet<String>> = graph
        .iter()
        .map(|(k, v)| (k.clone(), v.keys().cloned().collect()))
        .collect();
    if let Some(cycle) = find_cycle(&names) {
        let files: Vec<String> = cycle
            .windows(2)
            .map(|w| format!("src/{}", graph[&w[0]][&w[1]].display()))
            .collect();
        problems.push(format!(
            "module cycle {} (through {})",
            cycle.join(" -> "),
            files.join(", ")
        ));
    }
    problems.sort();
    problems.dedup();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn files_of_a_module_directory_do_not_import_one_another_in_a_circle() {
    let mut files = Vec::new();
    rust_files(&Path::new(ROOT).join("src"), &mut files);
    let dirs: Vec<PathBuf> = files
        .iter()
        .filter(|f| f.file_name().is_some_and(|n| n == "mod.rs"))
        .map(|f| f.parent().unwrap().to_path_buf())
        .collect();
    assert!(dirs.iter().any(|d| d.ends_with("migrate/import")));
    for dir in dirs {
        let rel = dir.strip_prefix(Path::new(ROOT).join("src")).unwrap();
        let parent = module_of(&rel.join("mod.rs"));
        let siblings: BTreeSet<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "rs"))
            .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
            .filter(|n| n != "mod")
            .collect();
        // What the parent re-exports, by name: `super::Name` is an import of its file.
        let mut reexported = BTreeMap::new();
        let mod_rs = std::fs::read_to_string(dir.join("mod.rs")).unwrap();
        for path in paths_in(&mod_rs) {
            if let [child, .., name] = &path[..] {
                if siblings.contains(child) {
                    reexported.insert(name.clone(), child.clone());
                }
            }
        }
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for file in &siblings {
            let module: Vec<String> = parent.iter().cloned().chain([file.clone()]).collect();
            let text = std::fs::read_to_string(dir.join(format!("{file}.rs"))).unwrap();
            for path in paths_in(&text) {
                let Some(abs) = resolve(&module, &path, false) else {
                    continue;
                };
                let Some(below) = abs.strip_prefix(&parent[..]) else {
                    continue;
                };
                let to = match below.first() {
                    Some(n) if siblings.contains(n) => n.clone(),
                    Some(n) => match reexported.get(n) {
                        Some(child) => child.clone(),
                        None => continue,
                    },
                    None => continue,
                };
                if &to != file {
                    graph.entry(file.clone()).or_default().insert(to);
                }
            }
        }
        assert!(
            !dir.ends_with("migrate/import")
                || graph.get("write").is_some_and(|w| w.contains("plan")),
            "the file scan found too little in {}: {graph:?}",
            dir.display()
        );
        if let Some(cycle) = find_cycle(&graph) {
            panic!(
                "files of {} import one another in a circle: {}",
                dir.display(),
                cycle.join(" -> ")
            );
        }
    }
}

#[test]
fn the_scan_reads_paths_as_rust_does() {
    let src = r#"
        use crate::{error::Error, store::{self, SessionEntry}};
        use super::super::paths::AgentId;
        // crate::commented::Out
        const S: &str = "crate::quoted::Out";
        fn f<'a>(c: char) -> bool { c == '{' || crate::units::x() }
        #[cfg(test)]
        mod tests { use crate::tested::Out; }
        #[cfg(test)]
        use crate::test_only::Out;
    "#;
    let mut found: Vec<String> = paths_in(src)
        .iter()
        .filter_map(|p| resolve(&["a".into(), "b".into()], p, false))
        .map(|p| p[0].clone())
        .collect();
    found.sort();
    found.dedup();
    assert_eq!(found, ["error", "paths", "store", "units"]);
}

/// The library names no command of the binary: a hint carries a `Remedy` instead, which
/// `src/cli/hints.rs` names.
#[test]
fn library_strings_name_no_command() {
    let src = Path::new(ROOT).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut found = Vec::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap();
        if rel.starts_with("cli") || rel == Path::new("main.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            if !line.trim_start().starts_with("//") && line.contains("`openclaw-sessions ") {
                found.push(format!("src/{}:{}", rel.display(), n + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "library strings name a command: {found:?}"
    );
}

/// The library knows no argument parser and no terminal: the crates that only the binary
/// uses (the parser, its completions and man page, tables, progress bars, the terminal's
/// size, `anyhow`'s untyped errors) are named nowhere outside `src/cli/` and `src/main.rs`.
#[test]
fn the_library_uses_no_crate_of_the_binary() {
    const BINARY_ONLY: &[&str] = &[
        "clap",
        "clap_complete",
        "clap_mangen",
        "comfy_table",
        "indicatif",
        "terminal_size",
        "anyhow",
    ];
    let src = Path::new(ROOT).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut found = BTreeSet::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap();
        if rel.starts_with("cli") || rel == Path::new("main.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for tok in tokens(&text) {
            if let Tok::Ident(name) = tok {
                if BINARY_ONLY.contains(&name.as_str()) {
                    found.insert(format!("src/{}: {name}", rel.display()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "the library names crates of the binary: {found:?}"
    );
}
