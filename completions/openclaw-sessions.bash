# bash completion for openclaw-sessions: source this file, or put it in
# ~/.local/share/bash-completion/completions/openclaw-sessions
_openclaw_sessions_complete() {
    local IFS=$'\013' line="${COMP_LINE:0:COMP_POINT}" pos=0 i gap rest trimmed
    local -a words=()
    # Re-join the words bash split at COMP_WORDBREAKS (`:` in session keys, `=`).
    for ((i = 0; i <= COMP_CWORD; i++)); do
        rest="${line:pos}"
        trimmed="${rest#"${rest%%[![:space:]]*}"}"
        gap=$((${#rest} - ${#trimmed}))
        pos=$((pos + gap))
        if ((i > 0 && gap == 0)); then
            words[${#words[@]} - 1]+="${COMP_WORDS[i]}"
        else
            words+=("${COMP_WORDS[i]}")
        fi
        pos=$((pos + ${#COMP_WORDS[i]}))
    done
    local cur="${COMP_WORDS[COMP_CWORD]}"
    ((COMP_CWORD < ${#COMP_WORDS[@]})) || cur=""
    local whole="${words[${#words[@]} - 1]}"
    local prefix="${whole%"$cur"}"
    COMPREPLY=($(
        _CLAP_IFS="$IFS" \
        _CLAP_COMPLETE_INDEX="$((${#words[@]} - 1))" \
        _CLAP_COMPLETE_COMP_TYPE="${COMP_TYPE:-9}" \
        COMPLETE="bash" \
        "openclaw-sessions" -- "${words[@]}" 2>/dev/null
    ))
    if [[ $? != 0 ]]; then
        unset COMPREPLY
        return
    fi
    # Bash replaces only its own current word: drop what precedes it.
    if [[ -n "$prefix" ]]; then
        COMPREPLY=("${COMPREPLY[@]#"$prefix"}")
    fi
    # Inserted as one shell word that runs nothing: a key may hold spaces, quotes, `$`,
    # backticks or newlines (keys come from channels and callers).
    local quoted
    for i in "${!COMPREPLY[@]}"; do
        printf -v quoted '%q' "${COMPREPLY[i]}"
        COMPREPLY[i]="$quoted"
    done
    if [[ "${COMPREPLY-}" =~ [=/:]$ ]]; then
        compopt -o nospace 2>/dev/null
    fi
}
complete -o nospace -o bashdefault -F _openclaw_sessions_complete openclaw-sessions 2>/dev/null ||
    complete -o bashdefault -F _openclaw_sessions_complete openclaw-sessions
