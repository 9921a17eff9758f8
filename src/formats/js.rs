//! JavaScript's string rules where OpenClaw's behaviour depends on them and Rust's differ.

/// ECMAScript's WhiteSpace and LineTerminator code points, which `String.prototype.trim`
/// strips. They differ from Rust's `char::is_whitespace`: U+FEFF is one, U+0085 is not.
pub const JS_WHITESPACE: &[char] = &[
    '\u{9}', '\u{a}', '\u{b}', '\u{c}', '\u{d}', ' ', '\u{a0}', '\u{1680}', '\u{2000}', '\u{2001}',
    '\u{2002}', '\u{2003}', '\u{2004}', '\u{2005}', '\u{2006}', '\u{2007}', '\u{2008}', '\u{2009}',
    '\u{200a}', '\u{2028}', '\u{2029}', '\u{202f}', '\u{205f}', '\u{3000}', '\u{feff}',
];

/// `String.prototype.trim`.
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(JS_WHITESPACE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trims_what_javascript_trims() {
        assert_eq!(js_trim("\u{feff} a b\u{3000}\n"), "a b");
        assert_eq!(js_trim("\u{85}a\u{85}"), "\u{85}a\u{85}");
    }
}
