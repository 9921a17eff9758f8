
set edit:completion:arg-completer[openclaw-sessions] = { |@words|
    var index = (count $words)
    set index = (- $index 1)

    put (env _CLAP_IFS="\n" _CLAP_COMPLETE_INDEX=(to-string $index) COMPLETE="elvish" openclaw-sessions -- $@words) | to-lines
}

