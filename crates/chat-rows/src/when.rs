//! Time decoding.
//!
//! Stores record time in half a dozen shapes: epoch milliseconds (VS Code, Tabby's
//! event log), epoch seconds, JavaScript's `toUTCString()` (RFC 1123, Cody's chat ids),
//! SQLite's `YYYY-MM-DD HH:MM:SS` (UTC by SQLite's own definition), and ISO 8601 with
//! or without a zone. The one rule that matters forensically: a wall-clock time whose
//! zone the store did not record is **never** presented as UTC. It keeps
//! [`Zone::Unknown`] (and prints without `Z`) unless the caller supplies the host's
//! zone. A missing time is `None`, never epoch 0.

use std::fmt;

use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, Month, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};

use crate::row::Zone;

/// A point in time with microsecond precision, and whether its zone is known.
///
/// For [`Zone::Utc`] the value is UTC. For [`Zone::Unknown`] it is the wall-clock time
/// the store wrote, unconverted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Timestamp {
    micros: i64,
    zone: Zone,
}

impl PartialOrd for Timestamp {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Timestamp {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.micros, self.zone).cmp(&(other.micros, other.zone))
    }
}

/// Earliest accepted time: 1980-01-01 (before it, a value is a unit mistake or zero-ish noise).
const MIN_MICROS: i64 = 315_532_800_000_000;
/// Latest accepted time: 9999-12-31.
const MAX_MICROS: i64 = 253_402_300_799_000_000;

impl Timestamp {
    /// A time from microseconds since the Unix epoch, in the given zone state.
    /// Times before 1980 or after 9999 are refused as implausible (`None`).
    pub fn from_unix_micros(micros: i64, zone: Zone) -> Option<Timestamp> {
        (MIN_MICROS..=MAX_MICROS)
            .contains(&micros)
            .then_some(Timestamp { micros, zone })
    }

    /// A UTC time from epoch milliseconds. Zero, negative and implausible values are `None`.
    pub fn from_epoch_millis(ms: i64) -> Option<Timestamp> {
        Timestamp::from_unix_micros(ms.checked_mul(1000)?, Zone::Utc)
    }

    /// A UTC time from epoch milliseconds given as a float (JSON numbers are floats in JavaScript).
    pub fn from_epoch_millis_f64(ms: f64) -> Option<Timestamp> {
        if !ms.is_finite() {
            return None;
        }
        let micros = (ms * 1000.0).round();
        if micros < i64::MIN as f64 || micros > i64::MAX as f64 {
            return None;
        }
        Timestamp::from_unix_micros(micros as i64, Zone::Utc)
    }

    /// A UTC time from epoch seconds. Zero, negative and implausible values are `None`.
    pub fn from_epoch_seconds(s: i64) -> Option<Timestamp> {
        Timestamp::from_unix_micros(s.checked_mul(1_000_000)?, Zone::Utc)
    }

    /// A UTC time from a `time` date-time.
    pub fn from_offset_datetime(dt: OffsetDateTime) -> Option<Timestamp> {
        let micros = i64::try_from(dt.unix_timestamp_nanos() / 1000).ok()?;
        Timestamp::from_unix_micros(micros, Zone::Utc)
    }

    /// A zone-less wall-clock time: UTC when `host` gives the host's offset, else [`Zone::Unknown`].
    pub fn from_local(dt: PrimitiveDateTime, host: Option<UtcOffset>) -> Option<Timestamp> {
        match host {
            Some(offset) => Timestamp::from_offset_datetime(dt.assume_offset(offset)),
            None => {
                let micros = i64::try_from(dt.assume_utc().unix_timestamp_nanos() / 1000).ok()?;
                Timestamp::from_unix_micros(micros, Zone::Unknown)
            }
        }
    }

    /// A UTC time from a file's modification time.
    pub fn from_system_time(t: std::time::SystemTime) -> Option<Timestamp> {
        Timestamp::from_offset_datetime(OffsetDateTime::from(t))
    }

    /// Microseconds since the epoch (for [`Zone::Unknown`], of the wall-clock time read as if UTC).
    pub fn unix_micros(self) -> i64 {
        self.micros
    }

    /// Whether the zone is known.
    pub fn zone(self) -> Zone {
        self.zone
    }

    /// The date-time, read as if UTC (for [`Zone::Unknown`] that is the wall-clock value).
    pub fn as_utc_datetime(self) -> OffsetDateTime {
        OffsetDateTime::from_unix_timestamp_nanos(self.micros as i128 * 1000)
            .unwrap_or(OffsetDateTime::UNIX_EPOCH)
    }

    fn write_wall(self, f: &mut impl fmt::Write) -> fmt::Result {
        let dt = self.as_utc_datetime();
        write!(
            f,
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}",
            dt.year(),
            dt.month() as u8,
            dt.day(),
            dt.hour(),
            dt.minute(),
            dt.second(),
            dt.microsecond()
        )
    }

    /// ISO 8601 with microseconds and `+00:00`, as Timesketch wants it. Unknown-zone
    /// times are written as their wall-clock value; callers must label them.
    pub fn timesketch_datetime(self) -> String {
        let mut s = String::with_capacity(32);
        let _ = self.write_wall(&mut s);
        s.push_str("+00:00");
        s
    }

    /// Parses this crate's own output form back (`...Z` for UTC, no suffix for unknown).
    pub fn parse_output(s: &str, zone: Zone) -> Option<Timestamp> {
        match zone {
            Zone::Utc => parse_iso8601(s, None).filter(|t| t.zone == Zone::Utc),
            Zone::Unknown => parse_iso8601(s.trim_end_matches('Z'), None),
        }
    }
}

impl fmt::Display for Timestamp {
    /// `2026-10-03T10:00:00.000000Z` for UTC; `2024-01-31T01:06:18.524621` (no `Z`) for an unknown zone.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_wall(f)?;
        if self.zone == Zone::Utc {
            f.write_str("Z")?;
        }
        Ok(())
    }
}

/// Parses RFC 1123 / JavaScript `toUTCString()`: `Fri, 03 Oct 2026 10:00:00 GMT`.
/// The weekday is checked only for shape; the date decides.
pub fn parse_rfc1123(s: &str) -> Option<Timestamp> {
    let s = s.trim();
    let rest = s.split_once(", ").map(|(_, r)| r).unwrap_or(s);
    let mut it = rest.split_ascii_whitespace();
    let day: u8 = it.next()?.parse().ok()?;
    let month = match it.next()? {
        "Jan" => Month::January,
        "Feb" => Month::February,
        "Mar" => Month::March,
        "Apr" => Month::April,
        "May" => Month::May,
        "Jun" => Month::June,
        "Jul" => Month::July,
        "Aug" => Month::August,
        "Sep" => Month::September,
        "Oct" => Month::October,
        "Nov" => Month::November,
        "Dec" => Month::December,
        _ => return None,
    };
    let year: i32 = it.next()?.parse().ok()?;
    let mut hms = it.next()?.split(':');
    let h: u8 = hms.next()?.parse().ok()?;
    let m: u8 = hms.next()?.parse().ok()?;
    let sec: u8 = hms.next()?.parse().ok()?;
    if hms.next().is_some() {
        return None;
    }
    match it.next()? {
        "GMT" | "UTC" | "UT" | "+0000" | "Z" => {}
        _ => return None,
    }
    if it.next().is_some() {
        return None;
    }
    let date = Date::from_calendar_date(year, month, day).ok()?;
    let time = Time::from_hms(h, m, sec).ok()?;
    Timestamp::from_offset_datetime(PrimitiveDateTime::new(date, time).assume_utc())
}

/// Parses SQLite's `YYYY-MM-DD HH:MM:SS[.SSS]`, which SQLite's `CURRENT_TIMESTAMP` and
/// `datetime()` always write in UTC. A trailing `Z` or `+00:00` is accepted too.
pub fn parse_sqlite(s: &str) -> Option<Timestamp> {
    let s = s.trim();
    let s = s
        .strip_suffix('Z')
        .or_else(|| s.strip_suffix("+00:00"))
        .unwrap_or(s);
    let dt = parse_primitive(s)?;
    Timestamp::from_offset_datetime(dt.assume_utc())
}

fn parse_primitive(s: &str) -> Option<PrimitiveDateTime> {
    let fmt_t = format_description!(
        "[year]-[month]-[day]T[hour]:[minute][optional [:[second][optional [.[subsecond]]]]]"
    );
    let fmt_s = format_description!(
        "[year]-[month]-[day] [hour]:[minute][optional [:[second][optional [.[subsecond]]]]]"
    );
    PrimitiveDateTime::parse(s, fmt_t)
        .or_else(|_| PrimitiveDateTime::parse(s, fmt_s))
        .ok()
}

/// Parses ISO 8601 / RFC 3339, with or without a zone, `T` or space separated.
///
/// With a zone (`Z`, `+02:00`, `+0200`) the result is UTC. Without one, the result is
/// UTC only when `host` supplies the host's offset; otherwise it is the wall-clock
/// value with [`Zone::Unknown`].
pub fn parse_iso8601(s: &str, host: Option<UtcOffset>) -> Option<Timestamp> {
    let s = s.trim();
    if s.len() < 10 || !s.is_char_boundary(10) {
        return None;
    }
    if let Ok(dt) = OffsetDateTime::parse(s, &Rfc3339) {
        return Timestamp::from_offset_datetime(dt);
    }
    // Split off a zone suffix by hand: Z, ±HH:MM, ±HHMM, ±HH.
    let (body, offset) = split_zone(s);
    let dt = parse_primitive(body)?;
    match offset {
        Some(off) => Timestamp::from_offset_datetime(dt.assume_offset(off)),
        None => Timestamp::from_local(dt, host),
    }
}

fn split_zone(s: &str) -> (&str, Option<UtcOffset>) {
    if let Some(body) = s.strip_suffix('Z').or_else(|| s.strip_suffix('z')) {
        return (body, Some(UtcOffset::UTC));
    }
    // The zone starts at the last '+' or '-' after the time part (index > 10).
    let Some(pos) = s.rfind(['+', '-']) else {
        return (s, None);
    };
    if pos <= 10 {
        return (s, None);
    }
    let (body, zone) = s.split_at(pos);
    let sign: i8 = if zone.starts_with('-') { -1 } else { 1 };
    let digits: String = zone[1..].chars().filter(|c| *c != ':').collect();
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return (s, None);
    }
    let (h, m) = match digits.len() {
        2 => (digits.parse::<i8>().ok(), Some(0)),
        4 => (
            digits[..2].parse::<i8>().ok(),
            digits[2..].parse::<i8>().ok(),
        ),
        _ => return (s, None),
    };
    match (h, m) {
        (Some(h), Some(m)) => match UtcOffset::from_hms(sign * h, sign * m, 0) {
            Ok(off) => (body, Some(off)),
            Err(_) => (s, None),
        },
        _ => (s, None),
    }
}

/// Best-effort decoding of a time string of unknown shape: ISO 8601, SQLite, RFC 1123,
/// or digits as epoch milliseconds (13 digits) or seconds (10 digits).
pub fn parse_any(s: &str, host: Option<UtcOffset>) -> Option<Timestamp> {
    let t = s.trim();
    if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        let n: i64 = t.parse().ok()?;
        return match t.len() {
            13 => Timestamp::from_epoch_millis(n),
            10 => Timestamp::from_epoch_seconds(n),
            _ => None,
        };
    }
    parse_iso8601(t, host).or_else(|| parse_rfc1123(t))
}

/// Decodes a JSON value that holds epoch milliseconds as a number or a numeric string.
pub fn from_json_millis(v: &serde_json::Value) -> Option<Timestamp> {
    match v {
        serde_json::Value::Number(n) => n
            .as_i64()
            .and_then(Timestamp::from_epoch_millis)
            .or_else(|| n.as_f64().and_then(Timestamp::from_epoch_millis_f64)),
        serde_json::Value::String(s) => s
            .trim()
            .parse::<i64>()
            .ok()
            .and_then(Timestamp::from_epoch_millis),
        _ => None,
    }
}

/// Parses a host zone given on the command line: `+02:00`, `-0500`, `UTC`.
pub fn parse_offset(s: &str) -> Option<UtcOffset> {
    let s = s.trim();
    if s.eq_ignore_ascii_case("utc") || s == "Z" {
        return Some(UtcOffset::UTC);
    }
    match split_zone(&format!("2000-01-01T00:00:00{s}")) {
        (_, Some(off)) => Some(off),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epoch_millis_and_seconds() {
        let t = Timestamp::from_epoch_millis(1_759_400_001_000).unwrap();
        assert_eq!(t.to_string(), "2025-10-02T10:13:21.000000Z");
        let t = Timestamp::from_epoch_seconds(1_759_400_001).unwrap();
        assert_eq!(t.to_string(), "2025-10-02T10:13:21.000000Z");
        assert_eq!(Timestamp::from_epoch_millis(0), None);
        assert_eq!(Timestamp::from_epoch_millis(-5), None);
        assert_eq!(Timestamp::from_epoch_millis(i64::MAX), None);
        assert_eq!(
            from_json_millis(&serde_json::json!(1759400001000.0))
                .unwrap()
                .to_string(),
            "2025-10-02T10:13:21.000000Z"
        );
        assert_eq!(from_json_millis(&serde_json::json!(null)), None);
    }

    #[test]
    fn rfc1123() {
        let t = parse_rfc1123("Fri, 03 Oct 2026 10:00:00 GMT").unwrap();
        assert_eq!(t.to_string(), "2026-10-03T10:00:00.000000Z");
        assert_eq!(t.zone(), Zone::Utc);
        assert!(parse_rfc1123("Fri, 32 Oct 2026 10:00:00 GMT").is_none());
        assert!(parse_rfc1123("Fri, 03 Oct 2026 10:00:00 PST").is_none());
        assert!(parse_rfc1123("not a date").is_none());
        assert!(parse_rfc1123("").is_none());
    }

    #[test]
    fn sqlite_is_utc() {
        let t = parse_sqlite("2024-05-01 12:34:56").unwrap();
        assert_eq!(t.to_string(), "2024-05-01T12:34:56.000000Z");
        let t = parse_sqlite("2024-05-01 12:34:56.789").unwrap();
        assert_eq!(t.to_string(), "2024-05-01T12:34:56.789000Z");
        assert!(parse_sqlite("2024-13-01 00:00:00").is_none());
    }

    #[test]
    fn iso_with_zone_is_converted() {
        let t = parse_iso8601("2026-10-03T12:00:00+02:00", None).unwrap();
        assert_eq!(t.to_string(), "2026-10-03T10:00:00.000000Z");
        let t = parse_iso8601("2026-10-03T12:00:00.5+0200", None).unwrap();
        assert_eq!(t.to_string(), "2026-10-03T10:00:00.500000Z");
        let t = parse_iso8601("2026-10-03T10:00:00Z", None).unwrap();
        assert_eq!(t.zone(), Zone::Utc);
    }

    #[test]
    fn zoneless_iso_is_unknown_unless_host_zone_given() {
        let t = parse_iso8601("2024-01-31T01:06:18.524621", None).unwrap();
        assert_eq!(t.zone(), Zone::Unknown);
        assert_eq!(t.to_string(), "2024-01-31T01:06:18.524621");
        let host = parse_offset("+01:00").unwrap();
        let t = parse_iso8601("2024-01-31T01:06:18.524621", Some(host)).unwrap();
        assert_eq!(t.zone(), Zone::Utc);
        assert_eq!(t.to_string(), "2024-01-31T00:06:18.524621Z");
        assert!(parse_iso8601("2024-01-31", None).is_none());
        assert!(parse_iso8601("garbage-and-more", None).is_none());
        assert!(parse_iso8601("ééééééééééé", None).is_none());
    }

    #[test]
    fn timesketch_datetime_form() {
        let t = Timestamp::from_epoch_millis(1_759_400_001_123).unwrap();
        assert_eq!(t.timesketch_datetime(), "2025-10-02T10:13:21.123000+00:00");
    }

    #[test]
    fn parse_any_shapes() {
        assert_eq!(
            parse_any("1759400001000", None),
            Timestamp::from_epoch_millis(1_759_400_001_000)
        );
        assert_eq!(
            parse_any("1759400001", None),
            Timestamp::from_epoch_seconds(1_759_400_001)
        );
        assert!(parse_any("Fri, 03 Oct 2026 10:00:00 GMT", None).is_some());
        assert!(parse_any("12", None).is_none());
    }
}
