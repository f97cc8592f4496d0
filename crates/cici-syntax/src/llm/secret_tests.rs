use super::*;
use base64::Engine as _;
use proptest::prelude::*;

const KEY: &str = "sk-live-Abc123Xyz789SecretQ";

/// Every way a hostile or careless server was seen to echo a key, and
/// those the code can meet: each must come back without any run of eight
/// of the key's characters.
fn echoes(key: &str) -> Vec<String> {
    let b64 = base64::engine::general_purpose::STANDARD;
    let wrapped = {
        let text = b64.encode(format!("token={key}; more"));
        let lines: Vec<String> = text
            .as_bytes()
            .chunks(10)
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect();
        lines.join("\n")
    };
    let half = key.len() / 2;
    vec![
        key.to_string(),
        key.to_uppercase(),
        key.chars().rev().collect(),
        key.bytes().map(|b| format!("%{b:02x}")).collect(),
        key.bytes().map(|b| format!("%{b:02X}")).collect(),
        key.bytes().map(|b| format!("{b:02x}")).collect(),
        key.bytes().map(|b| format!("{b:02X}")).collect(),
        key.chars()
            .map(|c| format!("\\u{:04x}", c as u32))
            .collect(),
        // Every other character escaped, as a model's JSON once did.
        key.chars()
            .enumerate()
            .map(|(i, c)| {
                if i % 2 == 0 {
                    format!("\\u{:04X}", c as u32)
                } else {
                    c.to_string()
                }
            })
            .collect(),
        // Escaped twice: JSON inside a JSON string.
        key.chars()
            .map(|c| format!("\\\\u{:04x}", c as u32))
            .collect(),
        key.chars().map(|c| format!("&#{};", c as u32)).collect(),
        key.chars().map(|c| format!("&#x{:x};", c as u32)).collect(),
        key.chars().map(|c| format!("{c} ")).collect(),
        key.chars().map(|c| format!("{c}\u{200b}")).collect(),
        format!("{} and then {}", &key[..half], &key[half..]),
        b64.encode(format!("Bearer {key}")),
        b64.encode(format!("xx:{key}:yy")),
        wrapped,
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(format!("a{key}")),
    ]
}

/// Whether any run of eight characters of `key` (case folded) is in `text`.
fn betrays(text: &str, key: &str) -> bool {
    let lower = text.to_lowercase();
    let k: Vec<char> = key.to_lowercase().chars().collect();
    k.windows(8)
        .any(|w| lower.contains(&w.iter().collect::<String>()))
}

#[test]
fn every_echoed_form_of_the_key_is_masked() {
    for echoed in echoes(KEY) {
        let shown = redact(&format!("echo: {echoed} end"), Some(KEY));
        assert!(shown.contains("[redacted]"), "{echoed} -> {shown}");
        assert!(!betrays(&shown, KEY), "{echoed} -> {shown}");
        assert!(
            shown.starts_with("echo: ") && shown.ends_with(" end"),
            "{shown}"
        );
    }
}

#[test]
fn a_key_cut_short_is_masked_as_much_as_a_whole_one() {
    // Thirty of its thirty-one characters, as a reply cut at 200 once
    // printed.
    let cut = &KEY[..KEY.len() - 1];
    let shown = redact(&format!("error: invalid key {cut}"), Some(KEY));
    assert!(!betrays(&shown, KEY), "{shown}");
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
    assert!(!betrays(&v.to_string(), KEY), "{v}");
}

#[test]
fn text_without_the_key_is_left_as_it_was() {
    for text in [
        "The judge says the sanitized text states the fact.",
        "{\"entails\": true, \"reveals\": false, \"why\": \"\\u00e9t\\u00e9\"}",
        "caf&eacute; 100% sure &amp; 0x1f",
        "",
    ] {
        assert_eq!(redact(text, Some(KEY)), text);
    }
}

#[test]
fn credentials_in_a_url_and_controls() {
    assert_eq!(
        without_userinfo("http://u:secret@host:8/v1"),
        "http://host:8/v1"
    );
    assert_eq!(without_userinfo("--base-url"), "--base-url");
    assert_eq!(without_userinfo("http://host/a@b"), "http://host/a@b");
    assert_eq!(
        without_userinfo("https://h/v1?api_key=abc123&model=m&access_token=zz#f"),
        "https://h/v1?api_key=[redacted]&model=m&access_token=[redacted]#f"
    );
    assert_eq!(
        without_userinfo("https://h/v1?sig=1&x=2"),
        "https://h/v1?sig=[redacted]&x=2"
    );
    assert_eq!(
        escape_controls("a\u{1b}]0;x\u{7}b\n"),
        "a\\u{1b}]0;x\\u{7}b\n"
    );
    assert_eq!(
        escape_controls("safe \u{202e}txt.exe\u{2066}"),
        "safe \\u{202e}txt.exe\\u{2066}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A random key of 16 to 48 characters, echoed in every form inside
    /// random text, never survives; text that holds no run of it is
    /// unchanged.
    #[test]
    fn no_form_of_a_random_key_survives(
        key in "[A-Za-z0-9_-]{16,48}",
        before in "[ a-z.,:]{0,40}",
        after in "[ a-z.,:]{0,40}",
    ) {
        for echoed in echoes(&key) {
            let shown = redact(&format!("{before}{echoed}{after}"), Some(&key));
            prop_assert!(!betrays(&shown, &key), "{} -> {}", echoed, shown);
        }
        let plain = format!("{before}{after}");
        if !betrays(&plain, &key) {
            prop_assert_eq!(redact(&plain, Some(&key)), plain);
        }
    }
}
