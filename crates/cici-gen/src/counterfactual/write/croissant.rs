//! The Croissant metadata of a counterfactual folder (`croissant.json`):
//! one file object per split file with its SHA-256, one record set per
//! config and split whose fields are the row's columns (read from the row's
//! JSON Schema, so that the two cannot drift), and the Responsible-AI
//! fields of the Croissant RAI vocabulary.

use std::path::Path;

use serde_json::{json, Value};

use super::card::{counts, licences};
use super::row::{file_name, Row, KINDS, SPLITS};
use crate::counterfactual::base::config::Config;

/// The Croissant 1.0 context, with the RAI vocabulary.
fn context() -> Value {
    json!({
        "@language": "en",
        "@vocab": "https://schema.org/",
        "citeAs": "cr:citeAs",
        "column": "cr:column",
        "conformsTo": "dct:conformsTo",
        "cr": "http://mlcommons.org/croissant/",
        "rai": "http://mlcommons.org/croissant/RAI/",
        "data": { "@id": "cr:data", "@type": "@json" },
        "dataType": { "@id": "cr:dataType", "@type": "@vocab" },
        "dct": "http://purl.org/dc/terms/",
        "equivalentProperty": "cr:equivalentProperty",
        "examples": { "@id": "cr:examples", "@type": "@json" },
        "extract": "cr:extract",
        "field": "cr:field",
        "fileProperty": "cr:fileProperty",
        "fileObject": "cr:fileObject",
        "fileSet": "cr:fileSet",
        "format": "cr:format",
        "includes": "cr:includes",
        "isLiveDataset": "cr:isLiveDataset",
        "jsonPath": "cr:jsonPath",
        "key": "cr:key",
        "md5": "cr:md5",
        "parentField": "cr:parentField",
        "path": "cr:path",
        "recordSet": "cr:recordSet",
        "references": "cr:references",
        "regex": "cr:regex",
        "repeated": "cr:repeated",
        "replace": "cr:replace",
        "samplingRate": "cr:samplingRate",
        "sc": "https://schema.org/",
        "separator": "cr:separator",
        "source": "cr:source",
        "subField": "cr:subField",
        "transform": "cr:transform"
    })
}

/// The row's columns and their Croissant data types, in schema order.
fn columns() -> Vec<(String, &'static str)> {
    let schema = super::row::schema();
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    props
        .iter()
        .map(|(name, p)| {
            let integer = p.get("type").and_then(Value::as_str) == Some("integer");
            (name.clone(), if integer { "sc:Integer" } else { "sc:Text" })
        })
        .collect()
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What the RAI vocabulary asks of a dataset, from what the prover and the
/// loop know.
fn rai() -> Value {
    json!({
        "rai:dataCollection": "Synthetic. Each row grows from a seed scenario written in the cici language (by hand, planted by `cici synth`, or imported from a PiSAs task-family seed) by minimal symbolic edits or a language model's edits; every variant is compiled, and its labels are computed by the cici prover.",
        "rai:dataCollectionType": "Machine-generated from hand-written and planted seeds",
        "rai:dataAnnotationProtocol": "No human annotation. A decision label is the one decision the public constraints and the appropriate facts allow, proven unique by a SAT solver; a flow label is yes exactly when the task needs the form and the scenario's norms let the recipient receive it.",
        "rai:annotationsPerItem": "1 (computed)",
        "rai:dataPreprocessingProtocol": "A rule-based critic accepts a variant only if it is minimal, reads differently from its anchor, adds no warning, states its facts, leaks no raw reason in a sanitized text, writes no label word and, for decisions, shows every trap of its scenario.",
        "rai:dataUseCases": "Evaluating whether language models and agents reach the decision the appropriate information allows while leaving aside what they should not use, and whether they judge information flows by contextual integrity. An evaluation set, not training data.",
        "rai:dataLimitations": "Synthetic workplaces and names from fixed pools; rows of one seed are close to one another (the splits keep them together); texts are checked against their facts by a plain reader; English only.",
        "rai:dataBiases": "Names, roles and the sensitive circumstances come from small fixed pools and the seeds' authors; they do not sample real workplaces or populations.",
        "rai:personalSensitiveInformation": "The texts describe health, family, financial and other personal circumstances of fictional people, by design: they are what a model must not use or pass on. No real person is described.",
        "rai:dataSocialImpact": "Meant to measure and reduce leaks of personal information by agents that serve teams. The same items could be used to tune a model to pass the benchmark without behaving better; keep the test split out of training.",
        "rai:dataReleaseMaintenancePlan": "Regenerated with `cici counterfactual`; the same seeds and options give the same rows, with content-hash ids."
    })
}

/// The Croissant JSON-LD of the folder `out`, whose split files are
/// already written.
pub fn croissant(out: &Path, rows: &[Row], config: &Config) -> std::io::Result<String> {
    let counts = counts(rows);
    let cols = columns();
    let mut files = Vec::new();
    let mut sets = Vec::new();
    for kind in KINDS {
        for split in SPLITS {
            if !counts.contains_key(&(kind.name().to_string(), split.to_string())) {
                continue;
            }
            let path = file_name(kind, split);
            let bytes = std::fs::read(out.join(&path))?;
            let id = format!("{}-{split}", kind.name());
            files.push(json!({
                "@type": "cr:FileObject",
                "@id": format!("{id}-file"),
                "name": format!("{id}-file"),
                "description": format!("The {} rows of the {split} split, one JSON object per line.", kind.name()),
                "contentUrl": path,
                "encodingFormat": "application/jsonlines",
                "sha256": sha256_hex(&bytes),
            }));
            let fields: Vec<Value> = cols
                .iter()
                .map(|(name, ty)| {
                    json!({
                        "@type": "cr:Field",
                        "@id": format!("{id}/{name}"),
                        "name": name,
                        "dataType": ty,
                        "source": {
                            "fileObject": { "@id": format!("{id}-file") },
                            "extract": { "column": name }
                        }
                    })
                })
                .collect();
            sets.push(json!({
                "@type": "cr:RecordSet",
                "@id": id,
                "name": id,
                "description": format!("{} triplets, {split} split.", kind.name()),
                "field": fields,
            }));
        }
    }
    let licence = licences(&config.provenance.seeds).join(" / ");
    let mut doc = json!({
        "@context": context(),
        "@type": "sc:Dataset",
        "name": "cici-counterfactual-triplets",
        "description": "Counterfactual triplets of contextual-integrity scenarios: an anchor, a minimal change that flips its label and one that keeps it, each a complete evaluation item with a label computed by the cici prover.",
        "conformsTo": "http://mlcommons.org/croissant/1.0",
        "citeAs": "@software{cici, title = {cici: a compiler for contextual-integrity privacy benchmark scenarios}}",
        "license": licence,
        "version": env!("CARGO_PKG_VERSION"),
        "keywords": ["privacy", "contextual integrity", "counterfactual", "agents"],
        "distribution": files,
        "recordSet": sets,
    });
    if let (Some(obj), Value::Object(r)) = (doc.as_object_mut(), rai()) {
        obj.extend(r);
    }
    Ok(serde_json::to_string_pretty(&doc).expect("values serialize") + "\n")
}
