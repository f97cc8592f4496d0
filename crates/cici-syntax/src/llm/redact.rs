//! Finding a key however a server echoes it: the text is read through the
//! encodings a reply can wrap it in (JSON `\u` escapes, percent, HTML
//! entities, at any depth), with the spaces, line breaks and invisible
//! characters between its letters skipped and case folded; the key is then
//! looked for as a whole, reversed, in hex, in base64 at its three
//! alignments, and by any long run of its characters (so half a key, or a
//! key cut short, is found too). Every place found is masked in the
//! original text.

/// One character of a decoded view, with the byte range of the original
/// text it came from.
#[derive(Clone, Copy, Debug)]
struct Decoded {
    c: char,
    start: usize,
    end: usize,
}

/// The view of `text` with one layer of every encoding decoded.
fn decode_once(chars: &[Decoded]) -> (Vec<Decoded>, bool) {
    let mut out = Vec::with_capacity(chars.len());
    let mut changed = false;
    let mut i = 0;
    while i < chars.len() {
        if let Some((c, used)) = escape_at(chars, i) {
            out.push(Decoded {
                c,
                start: chars[i].start,
                end: chars[i + used - 1].end,
            });
            i += used;
            changed = true;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    (out, changed)
}

/// The character an escape at `i` stands for, and how many characters it
/// takes: `\uXXXX`, `\xHH`, `%HH`, `&#NN;`, `&#xHH;`, `&amp;` and kin.
fn escape_at(chars: &[Decoded], i: usize) -> Option<(char, usize)> {
    let at = |k: usize| chars.get(i + k).map(|d| d.c);
    let hex = |from: usize, n: usize| -> Option<u32> {
        let s: String = (from..from + n).map(&at).collect::<Option<String>>()?;
        if s.len() == n && s.chars().all(|c| c.is_ascii_hexdigit()) {
            u32::from_str_radix(&s, 16).ok()
        } else {
            None
        }
    };
    match at(0)? {
        '\\' => match at(1)? {
            'u' | 'U' => hex(2, 4).and_then(char::from_u32).map(|c| (c, 6)),
            'x' => hex(2, 2).and_then(char::from_u32).map(|c| (c, 4)),
            'n' | 'r' | 't' => Some((' ', 2)),
            '/' | '\\' | '"' => Some((at(1)?, 2)),
            _ => None,
        },
        '%' => hex(1, 2).and_then(char::from_u32).map(|c| (c, 3)),
        '&' => entity_at(chars, i),
        _ => None,
    }
}

/// An HTML entity at `i`: numeric (`&#107;`, `&#x6b;`) or named.
fn entity_at(chars: &[Decoded], i: usize) -> Option<(char, usize)> {
    let end = (i + 1..chars.len().min(i + 12)).find(|&k| chars[k].c == ';')?;
    let body: String = chars[i + 1..end].iter().map(|d| d.c).collect();
    let c = if let Some(n) = body.strip_prefix("#x").or(body.strip_prefix("#X")) {
        char::from_u32(u32::from_str_radix(n, 16).ok()?)?
    } else if let Some(n) = body.strip_prefix('#') {
        char::from_u32(n.parse().ok()?)?
    } else {
        match body.as_str() {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            "nbsp" => ' ',
            _ => return None,
        }
    };
    Some((c, end - i + 1))
}

/// Spaces, line breaks, invisible formatting and quotes between the
/// letters of a key do not hide it.
fn is_filler(c: char) -> bool {
    c.is_whitespace()
        || matches!(c, '"' | '\'' | '`')
        || matches!(c, '\u{00AD}' | '\u{061C}' | '\u{180E}' | '\u{FEFF}')
        || ('\u{200B}'..='\u{200F}').contains(&c)
        || ('\u{202A}'..='\u{202E}').contains(&c)
        || ('\u{2060}'..='\u{2069}').contains(&c)
}

/// The views the key is looked for in: decoded (up to four layers), without
/// filler; the exact one for base64, the folded one for everything else.
fn views(text: &str) -> (Vec<Decoded>, Vec<Decoded>) {
    let mut chars: Vec<Decoded> = text
        .char_indices()
        .map(|(i, c)| Decoded {
            c,
            start: i,
            end: i + c.len_utf8(),
        })
        .collect();
    for _ in 0..4 {
        let (next, changed) = decode_once(&chars);
        chars = next;
        if !changed {
            break;
        }
    }
    let exact: Vec<Decoded> = chars.into_iter().filter(|d| !is_filler(d.c)).collect();
    let folded = exact
        .iter()
        .map(|d| Decoded {
            c: d.c.to_lowercase().next().unwrap_or(d.c),
            ..*d
        })
        .collect();
    (exact, folded)
}

/// What betrays the key: its runs of a fixed length (as is and reversed,
/// and of its hex), looked for case folded, and its base64 forms, looked
/// for exactly.
struct Needles {
    run: usize,
    runs: std::collections::HashSet<String>,
    hex_run: usize,
    hex_runs: std::collections::HashSet<String>,
    base64: Vec<String>,
}

fn needles(key: &str) -> Needles {
    let folded: Vec<char> = key
        .chars()
        .filter(|&c| !is_filler(c))
        .flat_map(char::to_lowercase)
        .collect();
    let run = runs_of(folded.len());
    let mut runs = std::collections::HashSet::new();
    for seq in [folded.clone(), folded.iter().rev().copied().collect()] {
        for w in seq.windows(run) {
            runs.insert(w.iter().collect::<String>());
        }
    }
    let hex: Vec<char> = key
        .bytes()
        .flat_map(|b| format!("{b:02x}").chars().collect::<Vec<_>>())
        .collect();
    let hex_run = (2 * run).min(hex.len());
    let hex_runs = hex
        .windows(hex_run.max(1))
        .map(|w| w.iter().collect())
        .collect();
    Needles {
        run,
        runs,
        hex_run,
        hex_runs,
        base64: base64_forms(key),
    }
}

/// How long a run of the key's characters must be to count as the key: a
/// third of it, at least 8 (never more than the key).
fn runs_of(len: usize) -> usize {
    (len / 3).max(8).min(len)
}

/// The byte ranges of the original text where a window of `n` characters
/// of `view` is in `set`.
fn find_windows(
    view: &[Decoded],
    n: usize,
    set: &std::collections::HashSet<String>,
    out: &mut Vec<(usize, usize)>,
) {
    if n == 0 || view.len() < n || set.is_empty() {
        return;
    }
    let mut window = String::new();
    for first in 0..=view.len() - n {
        window.clear();
        window.extend(view[first..first + n].iter().map(|d| d.c));
        if set.contains(&window) {
            out.push((view[first].start, view[first + n - 1].end));
        }
    }
}

/// The byte ranges of the original text where a needle stands in `view`.
fn find(view: &[Decoded], needles: &[String], out: &mut Vec<(usize, usize)>) {
    let s: String = view.iter().map(|d| d.c).collect();
    let mut index_of = vec![0usize; s.len() + 1];
    for (k, (b, _)) in s.char_indices().enumerate() {
        index_of[b] = k;
    }
    for needle in needles.iter().filter(|n| !n.is_empty()) {
        let mut from = 0;
        while let Some(p) = s[from..].find(needle.as_str()) {
            let b = from + p;
            let first = index_of[b];
            let last = first + needle.chars().count() - 1;
            out.push((view[first].start, view[last].end));
            from = b + s[b..].chars().next().map_or(1, char::len_utf8);
        }
    }
}

/// `text` with every place that betrays `key` masked as `[redacted]`.
pub(super) fn mask_key(text: &str, key: &str) -> String {
    let (exact, folded) = views(text);
    let n = needles(key);
    let mut ranges = Vec::new();
    find_windows(&folded, n.run, &n.runs, &mut ranges);
    find_windows(&folded, n.hex_run, &n.hex_runs, &mut ranges);
    find(&exact, &n.base64, &mut ranges);
    masked(text, ranges)
}

/// `text` with each of `ranges` (merged where they touch) as `[redacted]`.
fn masked(text: &str, mut ranges: Vec<(usize, usize)>) -> String {
    if ranges.is_empty() {
        return text.to_string();
    }
    ranges.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (s, e) in ranges {
        match merged.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => merged.push((s, e)),
        }
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (s, e) in merged {
        out.push_str(&text[at..s]);
        out.push_str("[redacted]");
        at = e;
    }
    out.push_str(&text[at..]);
    out
}

/// The key in base64 (standard and URL-safe, alone or after `Bearer `):
/// the characters that depend on it alone, at each of the three alignments
/// it can take inside a longer base64 text. Every other form (escaped,
/// percent-encoded, hex, spaced, reversed, cut) is found by reading the
/// text through its encodings (the views above).
fn base64_forms(key: &str) -> Vec<String> {
    use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};
    use base64::Engine as _;
    let mut forms = Vec::new();
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
    forms.sort();
    forms.dedup();
    forms
}
