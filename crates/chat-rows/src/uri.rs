//! URI decoding: the `file:` and `vscode-remote:` URIs editors store for projects.
//!
//! VS Code writes Windows paths as `file:///c%3A/Users/...` (drive letter lower-case,
//! colon escaped), UNC paths as `file://server/share/...`, and remote folders as
//! `vscode-remote://ssh-remote%2Bhost/home/u/proj`. It also serialises URIs as JSON
//! objects (`{"$mid":1,"fsPath":...,"path":...,"scheme":"file"}`). [`to_path`] and
//! [`value_to_path`] turn all of them into the path a responder would type, keeping
//! the drive letter's case as the evidence has it.

use percent_encoding::percent_decode_str;
use serde_json::Value;

/// A decoded URI: its scheme, authority (host) and path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodedUri {
    /// `file`, `vscode-remote` ...
    pub scheme: String,
    /// The decoded authority: a UNC server, or `ssh-remote+host`; empty for local files.
    pub authority: String,
    /// The decoded path, in the form of the platform it names.
    pub path: String,
}

fn decode(s: &str) -> String {
    percent_decode_str(s).decode_utf8_lossy().into_owned()
}

/// `/c:/Users/x` → `c:\Users\x`; other paths unchanged.
fn windows_drive(path: &str) -> Option<String> {
    let b = path.as_bytes();
    if b.len() >= 3 && b[0] == b'/' && b[1].is_ascii_alphabetic() && b[2] == b':' {
        let rest = &path[3..];
        let mut out = String::with_capacity(path.len());
        out.push_str(&path[1..3]);
        if rest.is_empty() {
            out.push('\\');
        } else {
            out.push_str(&rest.replace('/', "\\"));
        }
        Some(out)
    } else {
        None
    }
}

/// Decodes a URI string. Uses the url crate, and falls back to a plain split for the
/// forms it refuses (an authority with characters a URL host may not hold).
pub fn decode_uri(uri: &str) -> Option<DecodedUri> {
    let uri = uri.trim();
    let (scheme, rest) = uri.split_once(':')?;
    if scheme.is_empty()
        || !scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
    {
        return None;
    }
    let scheme = scheme.to_ascii_lowercase();
    let (authority, raw_path) = match url::Url::parse(uri) {
        Ok(u) if scheme == "file" => (u.host_str().unwrap_or("").to_string(), u.path().to_string()),
        _ => match rest.strip_prefix("//") {
            Some(after) => match after.find('/') {
                Some(i) => (after[..i].to_string(), after[i..].to_string()),
                None => (after.to_string(), String::new()),
            },
            None => (String::new(), rest.to_string()),
        },
    };
    let raw_path = raw_path.split(['?', '#']).next().unwrap_or("").to_string();
    let path = decode(&raw_path);
    let authority = decode(&authority);
    let path = windows_drive(&path).unwrap_or(path);
    Some(DecodedUri {
        scheme,
        authority,
        path,
    })
}

/// Turns a project URI into a path: `file:` URIs to POSIX, Windows-drive or UNC paths,
/// `vscode-remote:` (and other schemes with a path) to the path on the remote machine.
/// A string that is not a URI is returned unchanged when it already looks like a path.
pub fn to_path(uri: &str) -> Option<String> {
    let t = uri.trim();
    if t.starts_with('/') || t.starts_with("\\\\") || windows_drive(&format!("/{t}")).is_some() {
        return Some(t.to_string());
    }
    let d = decode_uri(t)?;
    if d.path.is_empty() {
        return None;
    }
    if d.scheme == "file" && !d.authority.is_empty() && d.authority != "localhost" {
        // UNC: \\server\share\dir
        return Some(format!("\\\\{}{}", d.authority, d.path.replace('/', "\\")));
    }
    Some(d.path)
}

/// Turns the JSON form of a URI into a path: a URI string, or VS Code's
/// `{"$mid":1,"fsPath":...,"path":...,"scheme":...,"authority":...}` object.
pub fn value_to_path(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => to_path(s),
        Value::Object(o) => {
            let scheme = o.get("scheme").and_then(Value::as_str).unwrap_or("file");
            let authority = o.get("authority").and_then(Value::as_str).unwrap_or("");
            if scheme == "file" {
                if let Some(fs) = o.get("fsPath").and_then(Value::as_str) {
                    return Some(fs.to_string());
                }
            }
            let path = o.get("path").and_then(Value::as_str)?;
            if scheme == "file" && !authority.is_empty() {
                return Some(format!("\\\\{}{}", authority, path.replace('/', "\\")));
            }
            Some(windows_drive(path).unwrap_or_else(|| path.to_string()))
        }
        _ => None,
    }
}

/// The common parent directory of several paths (POSIX or Windows); empty when none.
pub fn common_parent<'a>(paths: impl IntoIterator<Item = &'a str>) -> String {
    let mut common: Option<Vec<&str>> = None;
    let mut sep = '/';
    for p in paths {
        if p.contains('\\') && !p.contains('/') {
            sep = '\\';
        }
        let parts: Vec<&str> = p.split(['/', '\\']).collect();
        // the parent of a file: drop the last component
        let parent = &parts[..parts.len().saturating_sub(1)];
        common = Some(match common {
            None => parent.to_vec(),
            Some(c) => c
                .iter()
                .zip(parent.iter())
                .take_while(|(a, b)| a == b)
                .map(|(a, _)| *a)
                .collect(),
        });
    }
    let parts = common.unwrap_or_default();
    let joined = parts.join(&sep.to_string());
    if joined.is_empty() && parts.len() == 1 {
        sep.to_string()
    } else {
        joined
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn posix_file_uri() {
        assert_eq!(
            to_path("file:///home/u/proj").as_deref(),
            Some("/home/u/proj")
        );
        assert_eq!(
            to_path("file:///home/u/my%20proj").as_deref(),
            Some("/home/u/my proj")
        );
    }

    #[test]
    fn windows_drive_uri() {
        assert_eq!(
            to_path("file:///c%3A/Users/alice/src/app").as_deref(),
            Some("c:\\Users\\alice\\src\\app")
        );
        assert_eq!(to_path("file:///D:/work").as_deref(), Some("D:\\work"));
        assert_eq!(to_path("file:///c%3A").as_deref(), Some("c:\\"));
    }

    #[test]
    fn unc_uri() {
        assert_eq!(
            to_path("file://fileserver/share/team/proj").as_deref(),
            Some("\\\\fileserver\\share\\team\\proj")
        );
    }

    #[test]
    fn vscode_remote_uri() {
        let d = decode_uri("vscode-remote://ssh-remote%2Bbuildbox/home/u/proj").unwrap();
        assert_eq!(d.scheme, "vscode-remote");
        assert_eq!(d.authority, "ssh-remote+buildbox");
        assert_eq!(d.path, "/home/u/proj");
        assert_eq!(
            to_path("vscode-remote://wsl%2Bubuntu/home/u/proj").as_deref(),
            Some("/home/u/proj")
        );
    }

    #[test]
    fn json_uri_form() {
        let v = json!({"$mid":1,"fsPath":"c:\\Users\\a\\proj","path":"/c:/Users/a/proj","scheme":"file"});
        assert_eq!(value_to_path(&v).as_deref(), Some("c:\\Users\\a\\proj"));
        let v = json!({"$mid":1,"path":"/c:/Users/a/proj","scheme":"file"});
        assert_eq!(value_to_path(&v).as_deref(), Some("c:\\Users\\a\\proj"));
        let v =
            json!({"$mid":1,"path":"/home/u","scheme":"vscode-remote","authority":"ssh-remote+h"});
        assert_eq!(value_to_path(&v).as_deref(), Some("/home/u"));
        assert_eq!(value_to_path(&json!(3)), None);
    }

    #[test]
    fn not_a_uri() {
        assert_eq!(
            to_path("/already/a/path").as_deref(),
            Some("/already/a/path")
        );
        assert_eq!(to_path("C:\\x").as_deref(), Some("C:\\x"));
        assert_eq!(to_path("no scheme here"), None);
    }

    #[test]
    fn common_parent_of_files() {
        assert_eq!(common_parent(["/a/b/c.rs", "/a/b/d/e.rs"]), "/a/b");
        assert_eq!(common_parent(["c:\\p\\x.rs", "c:\\p\\y\\z.rs"]), "c:\\p");
        assert_eq!(common_parent(std::iter::empty()), "");
    }
}
