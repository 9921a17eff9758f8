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

# `secrets scrub` on a store OpenClaw's SDK seeded (a tool result with a config value, token
# shapes and a password), with a secret in an import archive, in a `.deleted` archive (zstd)
# and in an OpenClaw snapshot under the state dir: afterwards no byte of any seeded secret is
# left in any file (zstd files decoded; the config, where the token belongs, aside), our scan
# finds nothing, and OpenClaw lists every session, reads every transcript back, validates the
# databases and takes them as exact (`openclaw_accepts`).
check_secrets_scrub_openclaw_reads_back() {
  local s key sid i rc
  s="$(copy_store live)"
  key=agent:main:pinned-notes
  ours_run show.json "$s" show "$key" --json || check_error "show $key"
  sid="$(jsonq show.json 'j.data.sessionId')"
  local secrets=(
    "gw-ref-token-4f9c2a7e1b3d5f60"
    "AKIAQ7X2LMNB4RT56R5T"
    "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1x3z5Ab"
    "Zq7wX3mK9pL2vB8nR4tY"
  )
  # The Gateway's token added to the store's own config (its agents stay listed).
  node -e 'const fs=require("fs"),[f,t]=process.argv.slice(1),c=JSON.parse(fs.readFileSync(f,"utf8"));c.gateway={auth:{mode:"token",token:t}};fs.writeFileSync(f,JSON.stringify(c,null,2)+"\n")' \
    "$s/openclaw.json" "${secrets[0]}" || { check_error "config edit"; return; }
  oc_sdk "$s" sdk-secrets.mjs main "$key" "$sid" "${secrets[@]}" > sdk.json 2> sdk.err ||
    { check_error "SDK append: $(tail -n 3 sdk.err)"; return; }
  local line archive deleted
  line="$(printf '{"type":"message","message":{"role":"toolResult","content":[{"type":"text","text":"DB_PASSWORD=%s token %s"}]}}' "${secrets[3]}" "${secrets[2]}")"
  archive="$(ls "$s"/agents/main/session-sqlite-import-archive/*.jsonl.imported-* | head -n 1)"
  printf '%s\n' "$line" >> "$archive"
  deleted="$(ls "$s"/agents/main/sessions/*.jsonl.deleted.*.zst | head -n 1)"
  { zstd -dc "$deleted"; printf '%s\n' "$line"; } | zstd -q -c > deleted.zst && cp deleted.zst "$deleted"
  # OpenClaw's own snapshot of the seeded database, kept under the state dir.
  rc=0; oc_run backup.json "$s" backup sqlite create --agent main --repository "$s/backups" --json || rc=$?
  [[ $rc -eq 0 ]] || check_error "openclaw backup sqlite create exited $rc"
  printf '%s\n' "${secrets[3]}" > values.txt
  local fp=() args=()
  for i in "${!secrets[@]}"; do fp+=("$(printf '%s' "${secrets[$i]}" | sha256sum | cut -c1-16)"); done
  args=(secrets scrub --yes --json --rule host-value --rule aws-access-token --rule github-pat
        --value-from "$PWD/values.txt" --remove-snapshots)
  rc=0; ours_run scrub.json "$s" "${args[@]}" || rc=$?
  [[ $rc -eq 0 ]] || { check_error "secrets scrub exited $rc"; return; }
  for i in "${!secrets[@]}"; do
    if grep -qF -- "${secrets[$i]}" scrub.json scrub.json.err; then check_error "secret $i printed"; fi
  done
  note "scrub: $(jsonq scrub.json 'j.data.findings') findings of $(jsonq scrub.json 'j.data.secrets.length') secrets; $(jsonq scrub.json 'j.data.databases.length') databases, $(jsonq scrub.json 'j.data.files.length') files rewritten, $(jsonq scrub.json 'j.data.snapshots.length') snapshots removed"
  # No byte of a seeded secret in any file (zstd decoded), the config aside.
  local f left=0
  while IFS= read -r -d '' f; do
    [[ "$(basename "$f")" == openclaw.json ]] && continue
    for i in "${!secrets[@]}"; do
      if grep -qaF -- "${secrets[$i]}" "$f" ||
         { [[ "$(head -c 4 "$f" | od -An -tx1 | tr -d ' ')" == 28b52ffd ]] &&
           zstd -dc "$f" 2>/dev/null | grep -qaF -- "${secrets[$i]}"; }; then
        check_error "secret $i left in ${f#"$s"/}"; left=1
      fi
    done
  done < <(find "$s" -type f -print0)
  [[ $left -eq 1 ]] || note "no byte of the 4 seeded secrets left in any file under the state dir"
  rc=0; ours_run scan.json "$s" secrets scan --json --value-from "$PWD/values.txt" || rc=$?
  [[ $rc -eq 0 ]] || check_error "secrets scan after the scrub exited $rc, not 0"
  # OpenClaw reads the scrubbed transcript back through its SDK, with the marker in it.
  oc_sdk "$s" sdk-secrets-readback.mjs main "$key" "$sid" "${secrets[@]}" > readback.json 2> readback.err ||
    check_error "SDK read-back of $key: $(tail -n 3 readback.err)"
  [[ "$(jsonq readback.json 'j.raw.some(Boolean)')" == false ]] || check_error "OpenClaw reads a secret back from $key"
  [[ "$(jsonq readback.json 'j.marker')" == true ]] || check_error "no redaction marker in $key's tool result"
  rc=0; oc_run validate.txt "$s" doctor --session-sqlite validate --session-sqlite-all-agents || rc=$?
  [[ $rc -eq 0 ]] || check_error "openclaw doctor --session-sqlite validate exited $rc"
  openclaw_accepts "$s" scrubbed
}
CHECKS+=(secrets_scrub_openclaw_reads_back)
