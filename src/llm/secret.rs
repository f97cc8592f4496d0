//! Keeping secrets out of what cici prints and stores: a server may echo
//! the API key raw, JSON-escaped, URL-encoded or in base64, and a base URL
//! may carry credentials.

/// A URL without its userinfo: `http://user:secret@host/v1` becomes
/// `http://host/v1`. Text that is not such a URL comes back as it was.
pub fn without_userinfo(text: &str) -> String {
    let Some(scheme_end) = text.find("://") else {
        return text.to_string();
    };
    let rest = &text[scheme_end + 3..];
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => format!("{}{}", &text[..scheme_end + 3], &rest[at + 1..]),
        None => text.to_string(),
    }
}

/// Control characters of a server's text, escaped so that none reaches a
/// terminal (`\u{1b}` for ESC); line breaks and tabs stay.
pub fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Every form in which a server may echo `key`: as is, percent-encoded
/// (every byte, either case), `\u`-escaped (either case), and in base64
/// (standard and URL-safe, alone or after `Bearer `, at each of the three
/// alignments it can take inside a longer base64 text).
#[cfg(feature = "llm")]
pub fn key_forms(key: &str) -> Vec<String> {
    use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};
    use base64::Engine as _;
    let mut forms = vec![key.to_string()];
    let bytes = key.as_bytes();
    forms.push(bytes.iter().map(|b| format!("%{b:02X}")).collect());
    forms.push(bytes.iter().map(|b| format!("%{b:02x}")).collect());
    forms.push(
        key.chars()
            .map(|c| format!("\\u{:04x}", c as u32))
            .collect(),
    );
    forms.push(
        key.chars()
            .map(|c| format!("\\u{:04X}", c as u32))
            .collect(),
    );
    let encoded: String = key
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    forms.push(encoded);
    for plain in [key.to_string(), format!("Bearer {key}")] {
        for pad in 0..3 {
            // What `plain` looks like in base64 after `pad` other bytes: the
            // characters that depend on `plain` alone.
            let mut buf = vec![0u8; pad];
            buf.extend_from_slice(plain.as_bytes());
            for engine in [&STANDARD_NO_PAD, &URL_SAFE_NO_PAD] {
                let text = engine.encode(&buf);
                let skip = if pad == 0 { 0 } else { (pad * 4).div_ceil(3) };
                let stable = (buf.len() * 4 / 3).saturating_sub(1);
                if stable > skip + 8 {
                    forms.push(text[skip..stable].to_string());
                }
            }
        }
    }
    forms.retain(|f| f.len() >= 4);
    forms.sort();
    forms.dedup();
    // Longest first, so that no form is cut by a shorter one inside it.
    forms.sort_by_key(|f| std::cmp::Reverse(f.len()));
    forms
}

/// `text` with every form of `key` masked, and anything that looks like a
/// credential (`Bearer <token>`, `sk-` keys).
#[cfg(feature = "llm")]
pub fn redact(text: &str, key: Option<&str>) -> String {
    let mut out = text.to_string();
    if let Some(k) = key.filter(|k| k.len() >= 4) {
        for form in key_forms(k) {
            out = out.replace(&form, "[redacted]");
        }
    }
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
mod tests {
    use super::*;
    use base64::Engine as _;

    const KEY: &str = "sk-live-Abc123Xyz789Secret";

    #[test]
    fn every_echoed_form_of_the_key_is_masked() {
        let b64 = base64::engine::general_purpose::STANDARD.encode(format!("Bearer {KEY}"));
        let inner = base64::engine::general_purpose::STANDARD.encode(format!("xx:{KEY}:yy"));
        for echoed in [
            KEY.to_string(),
            key_forms(KEY)[0].clone(),
            KEY.bytes().map(|b| format!("%{b:02x}")).collect(),
            KEY.chars()
                .map(|c| format!("\\u{:04x}", c as u32))
                .collect(),
            b64,
            inner,
        ] {
            let shown = redact(&format!("echo: {echoed} end"), Some(KEY));
            assert!(!shown.contains(&echoed), "{shown}");
            assert!(!shown.contains("Abc123Xyz789"), "{shown}");
        }
    }

    #[test]
    fn decoded_json_is_masked_too() {
        let escaped: String = KEY
            .chars()
            .map(|c| format!("\\u{:04x}", c as u32))
            .collect();
        let text = format!("{{\"error\": {{\"message\": \"bad key {escaped}\"}}}}");
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        redact_value(&mut v, Some(KEY));
        assert!(!v.to_string().contains("Abc123Xyz789"), "{v}");
    }

    #[test]
    fn userinfo_and_controls() {
        assert_eq!(
            without_userinfo("http://u:secret@host:8/v1"),
            "http://host:8/v1"
        );
        assert_eq!(without_userinfo("--base-url"), "--base-url");
        assert_eq!(without_userinfo("http://host/a@b"), "http://host/a@b");
        assert_eq!(
            escape_controls("a\u{1b}]0;x\u{7}b\n"),
            "a\\u{1b}]0;x\\u{7}b\n"
        );
    }
}
