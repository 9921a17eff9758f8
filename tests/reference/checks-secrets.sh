# Secrets checks (sourced by run.sh): OpenClaw 2026.9.6's SDK stores a tool result holding
# secrets, with its own write-time masking on (the default); `secrets scan` must find in the
# transcript rows exactly the secrets OpenClaw left in the clear, each in that session, and one
# seeded in an archive OpenClaw's import made (written before any masking), and print none.

check_secrets_scan_finds_what_openclaw_stored() {
  local s key sid i fp raw found
  s="$(copy_store live)"
  key=agent:main:pinned-notes
  ours_run show.json "$s" show "$key" --json || check_error "show $key"
  sid="$(jsonq show.json 'j.data.sessionId')"
  # A config value (the Gateway's token), well-known shapes and a plain password.
  local secrets=(
    "gw-ref-token-4f9c2a7e1b3d5f60"
    "AKIAQ7X2LMNB4RT56R5T"
    "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1x3z5Ab"
    "Zq7wX3mK9pL2vB8nR4tY"
  )
  printf '{"gateway":{"auth":{"mode":"token","token":"%s"}}}\n' "${secrets[0]}" > "$s/openclaw.json"
  oc_sdk "$s" sdk-secrets.mjs main "$key" "$sid" "${secrets[@]}" > sdk.json 2> sdk.err ||
    { check_error "SDK append: $(tail -n 3 sdk.err)"; return; }
  # A secret in an import archive (a legacy transcript, before any masking).
  local archive
  archive="$(ls "$s"/agents/main/session-sqlite-import-archive/*.jsonl.imported-* | head -n 1)"
  printf '{"type":"message","message":{"role":"toolResult","content":[{"type":"text","text":"DB_PASSWORD=%s"}]}}\n' \
    "${secrets[3]}" >> "$archive"
  local rc=0
  ours_run scan.json "$s" secrets scan --json --limit 1000 || rc=$?
  [[ $rc -eq 1 ]] || check_error "secrets scan exited $rc, not 1"
  for i in "${!secrets[@]}"; do
    if grep -qF -- "${secrets[$i]}" scan.json scan.json.err; then check_error "secret $i printed"; fi
    fp="$(printf '%s' "${secrets[$i]}" | sha256sum | cut -c1-16)"
    raw="$(jsonq sdk.json "j.stored[$i].raw")"
    found="$(jsonq scan.json "j.data.findings.some(f => f.fingerprint === '$fp' && f.location.place === 'transcript' && f.location.sessionKey === '$key' && f.location.sessionId === '$sid')")"
    note "secret $i: OpenClaw stored it $([[ $raw == true ]] && echo raw || echo masked), ours found it in the row: $found"
    [[ "$raw" == "$found" ]] || check_error "secret $i: stored raw=$raw, found in the transcript=$found"
  done
  fp="$(printf '%s' "${secrets[3]}" | sha256sum | cut -c1-16)"
  [[ "$(jsonq scan.json "j.data.findings.some(f => f.fingerprint === '$fp' && f.location.place === 'import-archive')")" == true ]] ||
    check_error "the secret in the import archive was not found"
}
CHECKS+=(secrets_scan_finds_what_openclaw_stored)
