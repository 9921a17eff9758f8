//! Sizes, durations and timestamps as OpenClaw writes them (`10gb`, `30d`, ISO-8601 ms).

use crate::error::{Error, Result};

/// `10gb`, `512MiB`, `1.5g`, `1024` (bytes). Units are powers of 1024, as OpenClaw's.
pub fn parse_size(raw: &str) -> Result<u64> {
    let s = raw.trim().to_ascii_lowercase();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let value: f64 = num.parse().map_err(|_| bad(raw, "size"))?;
    let mult: u64 = match unit.trim() {
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
    Ok((value * mult as f64).round() as u64)
}

/// `30d`, `12h`, `90m`, `45s`, `500ms`, `2w`; a bare number means days (OpenClaw's default unit).
pub fn parse_duration_ms(raw: &str) -> Result<u64> {
    let s = raw.trim().to_ascii_lowercase();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let value: f64 = num.parse().map_err(|_| bad(raw, "duration"))?;
    let mult: f64 = match unit.trim() {
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
    Ok((value * mult).round() as u64)
}

fn bad(raw: &str, what: &str) -> Error {
    Error::InvalidArgument {
        message: format!("invalid {what} {raw:?}"),
        hint: None,
    }
}

/// Human size: `1.2 MiB`.
pub fn format_bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n as f64;
    let mut i = 0;
    while v >= 1024.0 && i < UNITS.len() - 1 {
        v /= 1024.0;
        i += 1;
    }
    if i == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[i])
    }
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

// Civil-date conversions (Howard Hinnant's algorithms), to avoid a date crate.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719468;
    let era = if z >= 0 { z } else { z - 146096 } / 146097;
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// Lower-case hex of bytes (digests in names, manifests and ids).
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `2026-06-01T08:00:00.000Z`, as JavaScript's `toISOString`.
pub fn iso_from_ms(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60,
        rem % 1000
    )
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

/// A point in time given on the command line: epoch ms, ISO-8601, or a duration meaning
/// "that long ago" (`7d`).
pub fn parse_time_arg(raw: &str, now_ms: i64) -> Result<i64> {
    let s = raw.trim();
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && s.len() >= 11 {
        return s.parse().map_err(|_| bad(raw, "time"));
    }
    if let Some(ms) = parse_iso_ms(s) {
        return Ok(ms);
    }
    parse_duration_ms(s)
        .map(|d| now_ms - d as i64)
        .map_err(|_| Error::InvalidArgument {
            message: format!("invalid time {raw:?}"),
            hint: Some(
                "use epoch milliseconds, an ISO date like 2026-06-01T08:00:00Z, or an age like 7d"
                    .into(),
            ),
        })
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
            let _ = parse_size(&s);
            let _ = parse_duration_ms(&s);
            let _ = parse_iso_ms(&s);
            let _ = parse_time_arg(&s, 0);
        }
    }
}
