//! The page: one self-contained HTML file, its style and script inline
//! and allowed by hash in a strict Content-Security-Policy, its data a
//! JSON block the script reads and nothing executes.

use serde_json::{json, Value};

use crate::verdicts::ledger::Ledger;

const TEMPLATE: &str = include_str!("page.html");
const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// The rows as the page's JSON, made once for every response.
pub fn rows_json(rows: &[Value]) -> String {
    let readers = super::baselines::Readers::new(rows);
    let page: Vec<Value> = rows
        .iter()
        .map(|r| super::data::page_row(r, &readers))
        .collect();
    escape(&serde_json::to_string(&page).expect("values serialize"))
}

/// JSON safe inside a `<script>` element: `<` only ever stands inside a
/// JSON string, where `\u003c` means the same, so no text can close the
/// element or open a comment.
fn escape(json: &str) -> String {
    json.replace('<', "\\u003c")
}

fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn sha256_b64(text: &str) -> String {
    use sha2::Digest;
    base64(&sha2::Sha256::digest(text.as_bytes()))
}

/// The Content-Security-Policy of the page: nothing from anywhere but
/// its own inline style and script (by hash), and requests to its own
/// server only.
pub fn csp() -> String {
    format!(
        "default-src 'none'; script-src 'sha256-{}'; style-src 'sha256-{}'; \
         connect-src 'self'; img-src 'none'; font-src 'none'; base-uri 'none'; \
         form-action 'none'; frame-ancestors 'none'",
        sha256_b64(SCRIPT),
        sha256_b64(STYLE)
    )
}

/// What the page says of where it runs.
pub struct Context<'a> {
    /// The folder's name as shown.
    pub folder: &'a str,
    pub reviewer: &'a str,
    /// Served (verdicts are saved) or a static copy.
    pub live: bool,
}

/// The whole page, `rows` from [`rows_json`].
pub fn page(rows: &str, ledger: &Ledger, cx: &Context) -> String {
    let head = json!({
        "folder": cx.folder,
        "reviewer": cx.reviewer,
        "live": cx.live,
        "reviews": ledger.current,
        "stale": ledger.stale,
    });
    let head = escape(&serde_json::to_string(&head).expect("values serialize"));
    // `{"folder":…,"stale":[…]}` with `,"rows":[…]` spliced before its brace.
    let data = format!("{},\"rows\":{rows}}}", &head[..head.len() - 1]);
    let (before, after) = TEMPLATE
        .split_once("{{DATA}}")
        .expect("the template has a data slot");
    let before = before
        .replace("{{CSP}}", &csp())
        .replace("{{STYLE}}", STYLE);
    let after = after.replace("{{SCRIPT}}", SCRIPT);
    let mut out = String::with_capacity(before.len() + data.len() + after.len());
    out.push_str(&before);
    out.push_str(&data);
    out.push_str(&after);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_rfc_vectors() {
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), coded);
        }
    }

    #[test]
    fn seed_text_cannot_close_the_data_block() {
        let row = json!({"id": "x", "kind": "flow", "anchor_item": "</script><script>alert(1)</script><!--"});
        let rows = rows_json(&[row]);
        let page = page(
            &rows,
            &Ledger::default(),
            &Context {
                folder: "</script>",
                reviewer: "r",
                live: false,
            },
        );
        let data = page.split("id=\"cici-data\">").nth(1).unwrap();
        let data = &data[..data.find("</script>").unwrap()];
        assert!(!data.contains('<'), "{data}");
        let v: Value = serde_json::from_str(data).unwrap();
        assert_eq!(
            v["rows"][0]["anchor"]["item"],
            "</script><script>alert(1)</script><!--"
        );
        assert_eq!(v["folder"], "</script>");
    }
}
