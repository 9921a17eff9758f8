//! Sizes, durations and timestamps: as OpenClaw writes them in its config and files (`10gb`,
//! `30d`, ISO-8601 ms), and the one grammar of our command line (README.md, Times and sizes):
//! durations like `1w2d12h`, calendar dates and RFC 3339 instants through `jiff`, epoch values
//! only with their unit. Sizes print through `bytesize`.

use crate::error::{Error, Result};

/// `1.5gb` as (1.5, "gb"): the leading number and the lower-cased unit after it.
fn number_and_unit(raw: &str, what: &str) -> Result<(f64, String)> {
    let s = raw.trim().to_ascii_lowercase();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let value: f64 = num.parse().map_err(|_| bad(raw, what))?;
    Ok((value, unit.trim().to_string()))
}

/// `10gb`, `512MiB`, `1.5g`, `1024` (bytes). Units are powers of 1024, as OpenClaw's config
/// reads them (`gb` is GiB there); general size crates read `gb` as 10^9, hence our own.
pub fn parse_size(raw: &str) -> Result<u64> {
    let (value, unit) = number_and_unit(raw, "size")?;
    let mult: u64 = match unit.as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        _ => return Err(bad(raw, "size")),
    };
    if !value.is_finite() || value < 0.0 {
        return Err(bad(raw, "size"));
    }
    let bytes = (value * mult as f64).round();
    // `as u64` would saturate: a size past 2^64 - 1 bytes is refused, not read as the largest.
    if bytes >= u64::MAX as f64 {
        return Err(out_of_range(raw, "size", "sizes stop short of 16 EiB"));
    }
    Ok(bytes as u64)
}

/// `30d`, `12h`, `90m`, `45s`, `500ms`, `2w`; a bare number means days (OpenClaw's default unit).
pub fn parse_duration_ms(raw: &str) -> Result<u64> {
    let (value, unit) = number_and_unit(raw, "duration")?;
    let mult: f64 = match unit.as_str() {
        "ms" => 1.0,
        "s" | "sec" | "secs" => 1e3,
        "m" | "min" | "mins" => 60e3,
        "h" | "hr" | "hrs" => 3600e3,
        "" | "d" | "day" | "days" => 86400e3,
        "w" | "week" | "weeks" => 7.0 * 86400e3,
        _ => return Err(bad(raw, "duration")),
    };
    if !value.is_finite() || value < 0.0 {
        return Err(bad(raw, "duration"));
    }
    let ms = (value * mult).round();
    // Milliseconds are compared with epoch times (i64): past that is refused, not saturated.
    if ms >= i64::MAX as f64 {
        return Err(out_of_range(
            raw,
            "duration",
            "durations stop short of 292 million years",
        ));
    }
    Ok(ms as u64)
}

fn out_of_range(raw: &str, what: &str, limit: &str) -> Error {
    Error::InvalidArgument {
        message: format!("{what} {raw:?} is out of range"),
        hint: Some(limit.to_string()),
    }
}

fn bad(raw: &str, what: &str) -> Error {
    Error::InvalidArgument {
        message: format!("invalid {what} {raw:?}"),
        hint: None,
    }
}

/// Human size in binary units: `1.2 MiB`, `512 B`. A value that would print as 1000 or more
/// of a unit is shown in the next one (`0.98 MiB`, never `1000.7 KiB`).
pub fn format_bytes(n: u64) -> String {
    let text = bytesize::ByteSize::b(n).display().iec().to_string();
    let number: f64 = text
        .split_whitespace()
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    if number < 1000.0 || n < 1024 {
        return text;
    }
    const UNITS: [(&str, u64); 6] = [
        ("KiB", 1 << 10),
        ("MiB", 1 << 20),
        ("GiB", 1 << 30),
        ("TiB", 1 << 40),
        ("PiB", 1 << 50),
        ("EiB", 1 << 60),
    ];
    for pair in UNITS.windows(2) {
        let ((unit, _), (next, size)) = (pair[0], pair[1]);
        if text.ends_with(unit) {
            return format!("{:.2} {next}", n as f64 / size as f64);
        }
    }
    text
}

/// Age in words: `5m`, `3h`, `12d`.
pub fn format_age(ms: i64) -> String {
    let s = (ms.max(0) / 1000) as u64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m", s / 60),
        3600..=86399 => format!("{}h", s / 3600),
        _ => format!("{}d", s / 86400),
    }
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm), for the JavaScript
/// `Date.parse` emulation below, which must take what JavaScript takes (`2026-02-31` rolls over
/// there; a date crate would refuse it).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// Lower-case hex of bytes (digests in names, manifests and ids).
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `2026-06-01T08:00:00.000Z`, as JavaScript's `toISOString`.
pub fn iso_from_ms(ms: i64) -> String {
    match jiff::Timestamp::from_millisecond(ms) {
        Ok(t) => t.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string(),
        // Outside jiff's years -9999..=9999, which no store holds.
        Err(_) => format!("{ms}"),
    }
}

/// OpenClaw's archive stamp: ISO with `:` replaced by `-`.
pub fn archive_stamp(ms: i64) -> String {
    iso_from_ms(ms).replace(':', "-")
}

/// Parse `2026-06-01`, `2026-06-01T08:00:00Z`, `...T08:00:00.123+02:00`, or the archive
/// stamp form; returns epoch ms.
pub fn parse_iso_ms(raw: &str) -> Option<i64> {
    let s = raw.trim();
    let date = s.get(..10)?;
    let mut parts = date.split('-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: u32 = parts.next()?.parse().ok()?;
    let d: u32 = parts.next()?.parse().ok()?;
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || date.as_bytes()[4] != b'-' {
        return None;
    }
    let mut ms = days_from_civil(y, m, d) * 86_400_000;
    let rest = &s[10..];
    if rest.is_empty() {
        return Some(ms);
    }
    let rest = rest.strip_prefix('T').or_else(|| rest.strip_prefix(' '))?;
    let (time, offset_ms) = if let Some(t) = rest.strip_suffix('Z') {
        (t, 0)
    } else if let Some(pos) = rest.rfind(['+', '-']).filter(|p| *p >= 5) {
        let (t, off) = rest.split_at(pos);
        let sign = if off.starts_with('-') { -1 } else { 1 };
        let off = off[1..].replace(':', "");
        let hh: i64 = off.get(..2)?.parse().ok()?;
        let mm: i64 = off.get(2..4).unwrap_or("00").parse().ok()?;
        (t, sign * (hh * 3600 + mm * 60) * 1000)
    } else {
        (rest, 0)
    };
    let time = time.replace('-', ":");
    let (hms, frac) = time.split_once('.').unwrap_or((&time, ""));
    let mut f = hms.split(':');
    let h: i64 = f.next()?.parse().ok()?;
    let mi: i64 = f.next().unwrap_or("0").parse().ok()?;
    let se: i64 = f.next().unwrap_or("0").parse().ok()?;
    let frac_ms: i64 = if frac.is_empty() {
        0
    } else {
        format!("{:0<3}", &frac[..frac.len().min(3)]).parse().ok()?
    };
    if h > 23 || mi > 59 || se > 60 {
        return None;
    }
    ms += ((h * 60 + mi) * 60 + se) * 1000 + frac_ms - offset_ms;
    Some(ms)
}

/// JavaScript's `Date.parse` for the forms transcripts carry: ISO 8601 (a date-time without
/// offset is read as UTC) and RFC 1123 (`Thu, 28 May 2026 20:00:04 GMT`).
pub fn parse_js_date(raw: &str) -> Option<i64> {
    let s = raw.trim();
    if s.is_empty() {
        return None;
    }
    if s.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return parse_iso_ms(s).filter(|_| s.len() >= 10 && s.as_bytes()[4] == b'-');
    }
    let rest = s.split_once(", ").map_or(s, |(_, r)| r);
    let mut f = rest.split_whitespace();
    let d: u32 = f.next()?.parse().ok()?;
    let months = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let mon = f.next()?.to_ascii_lowercase();
    let m = months.iter().position(|x| mon.starts_with(x))? as u32 + 1;
    let y: i64 = f.next()?.parse().ok()?;
    let time = f.next().unwrap_or("00:00:00");
    let zone = f.next().unwrap_or("GMT");
    if !matches!(zone, "GMT" | "UTC" | "Z" | "+0000") || !(1..=31).contains(&d) {
        return None;
    }
    let mut t = time.split(':');
    let h: i64 = t.next()?.parse().ok()?;
    let mi: i64 = t.next().unwrap_or("0").parse().ok()?;
    let se: i64 = t.next().unwrap_or("0").parse().ok()?;
    Some(days_from_civil(y, m, d) * 86_400_000 + ((h * 60 + mi) * 60 + se) * 1000)
}

/// What the command line accepts for a time, for hints.
pub const TIME_FORMS: &str = "an age like 7d or 1w2d12h, a date like 2026-06-01 (UTC), an \
RFC 3339 instant like 2026-06-01T08:00:00Z, or epoch time with its unit: @1780351215s or \
@1780351215000ms";

/// A duration on the command line: `30d`, `1w2d12h`, `90m`, `1h30m`, `500ms` (jiff's friendly
/// format; a day is 24 hours, a week 7 days). A bare number has no unit and is refused.
pub fn parse_duration_arg(raw: &str) -> Result<u64> {
    let refuse = |why: &str| Error::InvalidArgument {
        message: format!("invalid duration {raw:?}: {why}"),
        hint: Some("give units, e.g. 30d, 2w, 1w2d12h, 90m, 45s, 500ms".into()),
    };
    let s = raw.trim();
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return Err(refuse("a number needs a unit"));
    }
    let span: jiff::Span = s.parse().map_err(|e: jiff::Error| refuse(&e.to_string()))?;
    let duration = span
        .to_duration(jiff::SpanRelativeTo::days_are_24_hours())
        .map_err(|e| refuse(&e.to_string()))?;
    if duration.is_negative() {
        return Err(refuse("a duration cannot be negative"));
    }
    u64::try_from(duration.as_millis()).map_err(|_| refuse("too long"))
}

/// A duration of an option that took a bare number before it took units (`list --active 30`,
/// minutes; `--wait 600`, seconds): a bare whole number counts `bare_unit_ms`; anything else
/// is [`parse_duration_arg`]'s grammar (`30m`, `2h`, `7d`, `1w`).
pub fn parse_duration_or_count(raw: &str, bare_unit_ms: u64) -> Result<u64> {
    let s = raw.trim();
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        return s
            .parse::<u64>()
            .ok()
            .and_then(|n| n.checked_mul(bare_unit_ms))
            .ok_or_else(|| Error::InvalidArgument {
                message: format!("invalid duration {raw:?}: too long"),
                hint: None,
            });
    }
    parse_duration_arg(s)
}

/// A point in time on the command line, as epoch milliseconds: an age counted back from
/// `now_ms` (`7d`, `1w2d12h`), a calendar date (midnight UTC; `2026-02-31` is refused), an
/// RFC 3339 instant (`2026-06-01T08:00:00Z`, `...+02:00`), or `@SECONDSs` / `@MILLISms`.
pub fn parse_time_arg(raw: &str, now_ms: i64) -> Result<i64> {
    let s = raw.trim();
    let refuse = |why: String| Error::InvalidArgument {
        message: format!("invalid time {raw:?}: {why}"),
        hint: Some(format!("use {TIME_FORMS}")),
    };
    if let Some(epoch) = s.strip_prefix('@') {
        let (digits, scale) = if let Some(d) = epoch.strip_suffix("ms") {
            (d, 1)
        } else if let Some(d) = epoch.strip_suffix('s') {
            (d, 1000)
        } else {
            return Err(refuse("epoch time needs its unit (s or ms)".into()));
        };
        let n: i64 = digits
            .parse()
            .map_err(|_| refuse("not a whole number".into()))?;
        return n
            .checked_mul(scale)
            .ok_or_else(|| refuse("out of range".into()));
    }
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(refuse(
            "a bare number is ambiguous (an age needs a unit, epoch time a leading @ and a unit)"
                .into(),
        ));
    }
    let looks_like_date = s.len() >= 10 && s.as_bytes()[4] == b'-' && s.as_bytes()[7] == b'-';
    if looks_like_date && s.len() == 10 {
        let date: jiff::civil::Date = s.parse().map_err(|e: jiff::Error| refuse(e.to_string()))?;
        let ts = date
            .to_datetime(jiff::civil::Time::midnight())
            .to_zoned(jiff::tz::TimeZone::UTC)
            .map_err(|e| refuse(e.to_string()))?;
        return Ok(ts.timestamp().as_millisecond());
    }
    if looks_like_date {
        let ts: jiff::Timestamp = s.parse().map_err(|e: jiff::Error| {
            refuse(format!("{e} (an instant needs Z or an offset like +02:00)"))
        })?;
        return Ok(ts.as_millisecond());
    }
    let age =
        parse_duration_arg(s).map_err(|_| refuse("not an age, a date or an instant".into()))?;
    Ok(now_ms - age as i64)
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_durations_past_their_range_are_refused_not_saturated() {
        assert!(parse_size("99999999999999999999gb").is_err());
        assert!(parse_size("16384pb").is_err());
        assert!(parse_size("18446744073709551616").is_err());
        assert_eq!(parse_size("15tb").unwrap(), 15 << 40);
        assert!(parse_duration_ms("99999999999999999999d").is_err());
        assert_eq!(parse_duration_ms("2w").unwrap(), 14 * 86_400_000);
    }
    use proptest::prelude::*;

    #[test]
    fn sizes_and_durations() {
        assert_eq!(parse_size("10gb").unwrap(), 10 << 30);
        assert_eq!(parse_size("512").unwrap(), 512);
        assert!(parse_size("ten").is_err());
        assert_eq!(parse_duration_ms("30d").unwrap(), 30 * 86_400_000);
        assert_eq!(parse_duration_ms("7").unwrap(), 7 * 86_400_000);
        assert_eq!(parse_duration_ms("90m").unwrap(), 90 * 60_000);
        assert!(parse_duration_ms("-1d").is_err());
    }

    #[test]
    fn the_command_line_grammar() {
        const H: u64 = 3_600_000;
        assert_eq!(
            parse_duration_arg("1w2d12h").unwrap(),
            (7 * 24 + 2 * 24 + 12) * H
        );
        assert_eq!(parse_duration_arg("2w").unwrap(), 14 * 24 * H);
        assert_eq!(parse_duration_arg("1d12h").unwrap(), 36 * H);
        assert_eq!(parse_duration_arg("90m").unwrap(), 90 * 60_000);
        assert_eq!(parse_duration_arg("500ms").unwrap(), 500);
        for bad in ["30", "", "1mo", "-1d", "ten", "1y"] {
            assert!(parse_duration_arg(bad).is_err(), "{bad}");
        }
        let now = 1_780_351_215_000;
        for (arg, ms) in [
            ("1d12h", now - 36 * H as i64),
            ("2026-06-01", 1_780_272_000_000),
            ("2026-06-01T11:00:00+02:00", 1_780_304_400_000),
            ("@1780351215s", 1_780_351_215_000),
            ("@1780351215000ms", 1_780_351_215_000),
        ] {
            assert_eq!(parse_time_arg(arg, now).unwrap(), ms, "{arg}");
        }
        for bad in [
            "2026-02-31",
            "2026-13-01",
            "2026-06-01T08:00:00",
            "1780351215",
            "@1780351215",
            "yesterday",
        ] {
            let e = parse_time_arg(bad, now).unwrap_err();
            assert!(e.hint().unwrap().contains("RFC 3339"), "{bad}");
        }
    }

    #[test]
    fn sizes_print_in_binary_units_below_1000() {
        assert_eq!(format_bytes(512), "512 B");
        assert_eq!(format_bytes(1536), "1.5 KiB");
        assert_eq!(format_bytes(1_024_716), "0.98 MiB");
        assert_eq!(format_bytes(10 << 30), "10.0 GiB");
    }

    #[test]
    fn iso_round_trip_known() {
        assert_eq!(iso_from_ms(1780304400000), "2026-06-01T09:00:00.000Z");
        assert_eq!(
            parse_iso_ms("2026-06-01T09:00:00.000Z"),
            Some(1780304400000)
        );
        assert_eq!(
            parse_iso_ms("2026-06-01T11:00:00+02:00"),
            Some(1780304400000)
        );
        assert_eq!(
            parse_iso_ms("2026-06-01T09-00-00.000Z"),
            Some(1780304400000)
        );
        assert_eq!(archive_stamp(1795994683289), "2026-11-29T23-24-43.289Z");
        assert_eq!(parse_iso_ms("garbage"), None);
    }

    proptest! {
        #[test]
        fn iso_round_trip(ms in -62_000_000_000_000i64..253_000_000_000_000i64) {
            prop_assert_eq!(parse_iso_ms(&iso_from_ms(ms)), Some(ms));
        }

        #[test]
        fn parsers_never_panic(s in ".{0,40}") {
            let _ = parse_duration_arg(&s);
            let _ = parse_size(&s);
            let _ = parse_duration_ms(&s);
            let _ = parse_iso_ms(&s);
            let _ = parse_time_arg(&s, 0);
        }
    }
}
