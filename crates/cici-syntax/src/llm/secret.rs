//! Keeping secrets out of what cici prints and stores: a server may echo
//! the API key raw, JSON-escaped, URL-encoded or in base64, and a base URL
//! may carry credentials.

/// A URL without its credentials: the userinfo goes
/// (`http://user:secret@host/v1` becomes `http://host/v1`), and so does
/// the value of every query parameter whose name says it is one
/// (`?api_key=…` becomes `?api_key=[redacted]`). Text that is not a URL
/// comes back as it was.
pub fn without_userinfo(text: &str) -> String {
    let Some(scheme_end) = text.find("://") else {
        return text.to_string();
    };
    let rest = &text[scheme_end + 3..];
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let url = match rest[..authority_end].rfind('@') {
        Some(at) => format!("{}{}", &text[..scheme_end + 3], &rest[at + 1..]),
        None => text.to_string(),
    };
    without_query_credentials(&url)
}

/// Whether a query parameter of this name carries a credential.
fn is_credential(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    [
        "key",
        "token",
        "secret",
        "pass",
        "pwd",
        "sig",
        "auth",
        "credential",
        "session",
    ]
    .iter()
    .any(|w| n.contains(w))
}

fn without_query_credentials(url: &str) -> String {
    let Some(q) = url.find('?') else {
        return url.to_string();
    };
    let (head, query) = url.split_at(q + 1);
    let (query, fragment) = match query.find('#') {
        Some(h) => query.split_at(h),
        None => (query, ""),
    };
    let params: Vec<String> = query
        .split('&')
        .map(|p| match p.split_once('=') {
            Some((name, _)) if is_credential(name) => format!("{name}=[redacted]"),
            None if is_credential(p) => "[redacted]".to_string(),
            _ => p.to_string(),
        })
        .collect();
    format!("{head}{}{fragment}", params.join("&"))
}

/// Control characters of a server's text, and the invisible formatting
/// ones that can reorder or hide what a terminal shows (bidirectional
/// overrides and isolates, zero-width characters), escaped (`\u{1b}` for
/// ESC, `\u{202e}` for a right-to-left override); line breaks and tabs stay.
pub fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let format = matches!(c, '\u{00AD}' | '\u{061C}' | '\u{180E}' | '\u{FEFF}')
            || ('\u{200B}'..='\u{200F}').contains(&c)
            || ('\u{202A}'..='\u{202E}').contains(&c)
            || ('\u{2060}'..='\u{2069}').contains(&c);
        if (c.is_control() && c != '\n' && c != '\t') || format {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` with every form of `key` masked, and anything that looks like a
/// credential (`Bearer <token>`, `sk-` keys).
#[cfg(feature = "llm")]
pub fn redact(text: &str, key: Option<&str>) -> String {
    let mut out = match key.filter(|k| k.len() >= 4) {
        Some(k) => super::redact::mask_key(text, k),
        None => text.to_string(),
    };
    for marker in ["Bearer ", "bearer ", "sk-"] {
        let mut result = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(i) = rest.find(marker) {
            result.push_str(&rest[..i + marker.len()]);
            let after = &rest[i + marker.len()..];
            let token_len = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || "-_.~+/=".contains(c)))
                .unwrap_or(after.len());
            if token_len >= 8 {
                result.push_str("[redacted]");
            } else {
                result.push_str(&after[..token_len]);
            }
            rest = &after[token_len..];
        }
        result.push_str(rest);
        out = result;
    }
    out
}

/// Every string of a decoded JSON value (keys too) with [`redact`]
/// applied: what the raw text hid in escapes shows here.
#[cfg(feature = "llm")]
pub fn redact_value(value: &mut serde_json::Value, key: Option<&str>) {
    use serde_json::Value;
    match value {
        Value::String(s) => *s = redact(s, key),
        Value::Array(items) => items.iter_mut().for_each(|v| redact_value(v, key)),
        Value::Object(map) => {
            let entries: Vec<(String, Value)> = std::mem::take(map).into_iter().collect();
            for (k, mut v) in entries {
                redact_value(&mut v, key);
                map.insert(redact(&k, key), v);
            }
        }
        _ => {}
    }
}

#[cfg(all(test, feature = "llm"))]
#[path = "secret_tests.rs"]
mod tests;
