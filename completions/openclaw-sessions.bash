# bash completion for openclaw-sessions: source this file, or put it in
# ~/.local/share/bash-completion/completions/openclaw-sessions
_openclaw_sessions_complete() {
    local IFS=$'\013' line="${COMP_LINE:0:COMP_POINT}" pos=0 i gap rest trimmed
    local -a words=()
    # Re-join the words bash split at COMP_WORDBREAKS (`:` in session keys, `=`), as
    # bash-completion's `_get_comp_words_by_ref -n :=` does (this script needs no package).
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
    local last=$((${#words[@]} - 1))
    local whole="${words[last]}" quote=""
    # A word opened with a quote: the binary gets it without the quote; bash completes the
    # text inside it (and closes the quote on a single match).
    if [[ "$whole" == [\'\"]* ]]; then
        quote="${whole:0:1}"
        whole="${whole:1}"
        words[last]="$whole"
    fi
    # Bash replaces only the text after the last word break (`$2`, empty right after a `:`):
    # the part of the whole word before it is dropped from each candidate, as
    # bash-completion's `__ltrim_colon_completions` does.
    local prefix="${whole%"${2-${COMP_WORDS[COMP_CWORD]}}"}"
    COMPREPLY=($(
        _CLAP_IFS="$IFS" \
        _CLAP_COMPLETE_INDEX="$last" \
        _CLAP_COMPLETE_COMP_TYPE="${COMP_TYPE:-9}" \
        COMPLETE="bash" \
        "openclaw-sessions" -- "${words[@]}" 2>/dev/null
    ))
    if [[ $? != 0 ]]; then
        unset COMPREPLY
        return
    fi
    if [[ -n "$prefix" ]]; then
        COMPREPLY=("${COMPREPLY[@]#"$prefix"}")
    fi
    # Inserted as one shell word that runs nothing: a key may hold spaces, quotes, `$`,
    # backticks or newlines (keys come from channels and callers). Inside an opened quote,
    # only what that quote does not protect is escaped.
    local quoted
    for i in "${!COMPREPLY[@]}"; do
        case "$quote" in
        "'") quoted="${COMPREPLY[i]//\'/\'\\\'\'}" ;;
        '"')
            quoted="${COMPREPLY[i]//\\/\\\\}"
            quoted="${quoted//\"/\\\"}"
            quoted="${quoted//\$/\\\$}"
            quoted="${quoted//\`/\\\`}"
            ;;
        *) printf -v quoted '%q' "${COMPREPLY[i]}" ;;
        esac
        COMPREPLY[i]="$quoted"
    done
    # A space after a whole word; none after a candidate that goes on (`--flag=`, a
    # directory, `agent:main:`).
    if ((${#COMPREPLY[@]} == 1)) && [[ "${COMPREPLY[0]}" =~ [=/:]$ ]]; then
        compopt -o nospace 2>/dev/null
    fi
}
complete -o bashdefault -F _openclaw_sessions_complete openclaw-sessions
