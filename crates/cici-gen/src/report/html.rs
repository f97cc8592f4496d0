//! The report as one HTML page with nothing to fetch: the figures inline as
//! SVG, the style inline, no script, and a content security policy that
//! forbids loading anything. Every text from the folder is escaped.

use std::fmt::Write as _;

use super::svg::{draw, DrawError};
use super::{Figure, Report};

const STYLE: &str = "body{font-family:sans-serif;max-width:820px;margin:2em auto;padding:0 1em;color:#222}\
figure{margin:1.5em 0;border-top:1px solid #ddd;padding-top:.5em}\
figcaption{font-size:.9em;color:#444}svg{max-width:100%;height:auto}\
table{border-collapse:collapse;font-size:.85em}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}\
td:first-child,th:first-child{text-align:left}code{background:#f3f3f3}";

/// `<`, `>`, `&` and quotes escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The page.
pub fn page(report: &Report) -> Result<String, DrawError> {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>cici report: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape(&report.folder)
    );
    let _ = writeln!(
        out,
        "<h1>cici report</h1>\n<p>Folder <code>{}</code> ({}): {} row(s), {} scenario(s), {} inspect log(s).</p>",
        escape(&report.folder),
        escape(&report.sources.join(" and ")),
        report.rows,
        report.scenarios,
        report.logs
    );
    out.push_str("<nav><ul>\n");
    for f in &report.families {
        let _ = writeln!(out, "<li><a href=\"#{0}\">{0}</a></li>", escape(&f.family));
    }
    if !report.models.is_empty() {
        out.push_str("<li><a href=\"#models\">models</a></li>\n");
    }
    out.push_str("</ul></nav>\n");
    for f in &report.families {
        let _ = writeln!(
            out,
            "<section id=\"{0}\">\n<h2>{0}</h2>\n<p>{1} scenario(s), {2} row(s).</p>",
            escape(&f.family),
            f.scenarios,
            f.rows
        );
        for fig in &f.figures {
            figure(&mut out, fig)?;
        }
        out.push_str("</section>\n");
    }
    if !report.models.is_empty() {
        out.push_str("<section id=\"models\">\n<h2>Models</h2>\n");
        for fig in &report.models {
            figure(&mut out, fig)?;
        }
        out.push_str("</section>\n");
    }
    out.push_str("</body>\n</html>\n");
    Ok(out)
}

/// One figure: the SVG, its note and its numbers as a table.
fn figure(out: &mut String, fig: &Figure) -> Result<(), DrawError> {
    let svg = draw(fig)?;
    let _ = write!(
        out,
        "<figure id=\"fig-{}\">\n{svg}\n<figcaption>{}",
        escape(&fig.id),
        escape(&fig.note)
    );
    out.push_str("<details><summary>numbers</summary><table><tr><th>");
    out.push_str(&escape(&fig.y_label));
    for s in &fig.series {
        let _ = write!(out, "<th>{}", escape(&s.name));
    }
    for (i, c) in fig.categories.iter().enumerate() {
        let _ = write!(out, "<tr><td>{}", escape(c));
        for s in &fig.series {
            let v = s.values.get(i).copied().unwrap_or(0.0);
            let _ = write!(out, "<td>{}", number(v));
            if let Some((lo, hi)) = s.intervals.as_ref().and_then(|iv| iv.get(i)) {
                let _ = write!(out, " [{}, {}]", number(*lo), number(*hi));
            }
        }
    }
    out.push_str("</table></details></figcaption>\n</figure>\n");
    Ok(())
}

fn number(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}
