//! The committed completions and man pages are what the tool generates now. Regenerate with
//! `UPDATE_DOCS=1 cargo test --test cli docs`.

use std::path::Path;

use crate::common::bin;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn check_or_update(path: &Path, fresh: &[u8]) {
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, fresh).unwrap();
        return;
    }
    let committed = std::fs::read(path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{} is out of date: run UPDATE_DOCS=1 cargo test --test cli docs",
        path.display()
    );
}

#[test]
fn completions_are_current() {
    for (shell, file) in [
        ("bash", "openclaw-sessions.bash"),
        ("zsh", "_openclaw-sessions"),
        ("fish", "openclaw-sessions.fish"),
        ("powershell", "_openclaw-sessions.ps1"),
        ("elvish", "openclaw-sessions.elv"),
    ] {
        let out = bin().args(["completions", shell]).output().unwrap();
        assert!(out.status.success());
        check_or_update(&Path::new(ROOT).join("completions").join(file), &out.stdout);
    }
}

#[test]
fn man_pages_are_current() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin()
        .args(["man", "--out-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let committed_dir = Path::new(ROOT).join("man");
    let mut fresh: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    fresh.sort();
    assert!(fresh.contains(&"openclaw-sessions.1".to_string()));
    assert!(fresh.contains(&"openclaw-sessions-transcript-delta.1".to_string()));
    for name in &fresh {
        check_or_update(
            &committed_dir.join(name),
            &std::fs::read(dir.path().join(name)).unwrap(),
        );
    }
    if std::env::var_os("UPDATE_DOCS").is_none() {
        let mut committed: Vec<String> = std::fs::read_dir(&committed_dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        committed.sort();
        assert_eq!(
            committed, fresh,
            "man/ holds pages of commands that no longer exist"
        );
    }
}

/// tests/README.md maps each README claim to tests: every test it names exists.
#[test]
fn every_test_the_claims_table_names_exists() {
    let table = std::fs::read_to_string(Path::new(ROOT).join("tests/README.md")).unwrap();
    let mut sources = String::new();
    for e in std::fs::read_dir(Path::new(ROOT).join("tests/cli")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "rs") {
            sources.push_str(&std::fs::read_to_string(&p).unwrap());
        }
    }
    let mut named = 0;
    let mut rows = 0;
    for line in table
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| claim"))
    {
        let tests = line.trim_end_matches('|').rsplit(" | ").next().unwrap();
        rows += 1;
        let names: Vec<&str> = tests.split('`').skip(1).step_by(2).collect();
        assert!(!names.is_empty(), "a claim without a test: {line}");
        for name in names {
            named += 1;
            assert!(
                sources.contains(&format!("fn {name}(")),
                "tests/README.md names {name}, which is no test in tests/cli"
            );
        }
    }
    assert!(rows >= 10 && named >= 35, "{rows} claims, {named} tests");
}

/// Every source file a document of the repository names exists: docs that walk the code
/// (docs/ARCHITECTURE.md) must not send a newcomer to a file that moved.
#[test]
fn every_source_file_the_docs_name_exists() {
    let mut docs = vec![Path::new(ROOT).join("README.md")];
    for dir in ["docs", "docs/openclaw"] {
        for e in std::fs::read_dir(Path::new(ROOT).join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "md") {
                docs.push(p);
            }
        }
    }
    let mut named = 0;
    for doc in &docs {
        let text = std::fs::read_to_string(doc).unwrap();
        for (at, _) in text.match_indices("src/") {
            if at > 0 && !b" `(".contains(&text.as_bytes()[at - 1]) {
                continue;
            }
            let path: String = text[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || "_/.-".contains(*c))
                .collect();
            let path = path.trim_end_matches('.');
            if !path.ends_with(".rs") {
                continue;
            }
            named += 1;
            assert!(
                Path::new(ROOT).join(path).exists(),
                "{} names {path}, which does not exist",
                doc.display()
            );
        }
    }
    assert!(named >= 3, "only {named} source files named in the docs");
}

/// docs/openclaw/RELEASES.md's table "What this tool does per release" is the release table of
/// the code (`store::releases`), between its two markers (issue 48 item 1).
#[test]
fn the_release_table_of_the_docs_is_the_code_s() {
    const BEGIN: &str = "<!-- release table: generated from src/store/releases/table.rs -->\n";
    const END: &str = "<!-- end of the release table -->\n";
    let path = Path::new(ROOT).join("docs/openclaw/RELEASES.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let (head, rest) = text.split_once(BEGIN).expect("the table's first marker");
    let (_, tail) = rest.split_once(END).expect("the table's last marker");
    let fresh = format!(
        "{head}{BEGIN}{}{END}{tail}",
        openclaw_sessions::store::releases::markdown_table()
    );
    check_or_update(&path, fresh.as_bytes());
}
