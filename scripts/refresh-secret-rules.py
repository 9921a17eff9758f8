#!/usr/bin/env python3
"""Refresh src/secrets/gitleaks-rules.json from gitleaks' published rule set.

gitleaks (https://github.com/gitleaks/gitleaks, MIT licence) keeps its default rules in
config/gitleaks.toml. This tool uses the rules whose ids are listed in the JSON file already
(the ones that fit what an agent host holds: model provider keys, code hosts, chat bots,
cloud keys, private keys, assignments of passwords and tokens); this script takes those ids
from the upstream file as they are now, with their keywords, entropy thresholds, allowlists and
stopwords, and writes the JSON back. `--add ID` takes one more rule. See docs/SECRETS.md.

  python3 scripts/refresh-secret-rules.py                  # fetch upstream master
  python3 scripts/refresh-secret-rules.py --from FILE.toml # a local copy of the upstream file
  python3 scripts/refresh-secret-rules.py --ref v8.28.0    # a tag or commit
"""
import argparse
import json
import pathlib
import sys
import tomllib
import urllib.request

HERE = pathlib.Path(__file__).resolve().parent.parent
TARGET = HERE / "src" / "secrets" / "gitleaks-rules.json"
UPSTREAM = "https://raw.githubusercontent.com/gitleaks/gitleaks/{ref}/config/gitleaks.toml"


def allowlist(raw):
    out = {}
    for field in ("regexes", "stopwords"):
        if raw.get(field):
            out[field] = list(raw[field])
    if raw.get("regexTarget"):
        out["regexTarget"] = raw["regexTarget"]
    if raw.get("condition"):
        out["condition"] = raw["condition"]
    # Path allowlists name files of a repository; a transcript has no such path.
    return out if out.get("regexes") or out.get("stopwords") else None


def rule(raw):
    out = {"id": raw["id"], "description": raw.get("description", ""), "regex": raw["regex"]}
    if raw.get("secretGroup"):
        out["secretGroup"] = raw["secretGroup"]
    if raw.get("entropy"):
        out["entropy"] = raw["entropy"]
    out["keywords"] = [k.lower() for k in raw.get("keywords", [])]
    lists = [a for a in (allowlist(x) for x in raw.get("allowlists", [])) if a]
    if lists:
        out["allowlists"] = lists
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--from", dest="source", help="a local gitleaks.toml")
    ap.add_argument("--ref", default="master", help="upstream tag or commit (default master)")
    ap.add_argument("--add", action="append", default=[], help="also keep this rule id")
    args = ap.parse_args()
    if args.source:
        text = pathlib.Path(args.source).read_text()
        origin = args.source
    else:
        url = UPSTREAM.format(ref=args.ref)
        text = urllib.request.urlopen(url, timeout=60).read().decode()
        origin = url
    upstream = tomllib.loads(text)
    current = json.loads(TARGET.read_text()) if TARGET.exists() else {"rules": []}
    wanted = [r["id"] for r in current.get("rules", [])] + args.add
    by_id = {r["id"]: r for r in upstream.get("rules", [])}
    missing = [w for w in wanted if w not in by_id]
    if missing:
        print("not in the upstream file (left out): " + ", ".join(missing), file=sys.stderr)
    rules = [rule(by_id[w]) for w in dict.fromkeys(wanted) if w in by_id and "regex" in by_id[w]]
    glob = upstream.get("allowlist", {})
    doc = {
        "source": "gitleaks default rules (config/gitleaks.toml)",
        "upstream": "https://github.com/gitleaks/gitleaks",
        "licence": "MIT (Copyright (c) 2019 Zachary Rice)",
        "ref": args.ref if not args.source else current.get("ref", "unknown"),
        "refreshedFrom": origin if not args.source else current.get("refreshedFrom", origin),
        "allowlist": {
            "regexes": list(glob.get("regexes", [])),
            "stopwords": list(glob.get("stopwords", [])),
        },
        "rules": rules,
    }
    TARGET.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    print(f"{len(rules)} rules written to {TARGET.relative_to(HERE)}")


if __name__ == "__main__":
    main()
