//! Reading PiSAs scenario bundles back into seeds.
//!
//! A bundle that cici exported carries its seed (`utility.json`'s `cici`
//! key): the seed comes back with the bundle's labels and visibility, so a
//! bundle edited by hand is imported as edited. A bundle made by the
//! release's generator from a task-family seed is read with that seed
//! (`--seed`): the rules and states from the seed, the configuration from
//! `categories`, and the attributes from the bundle itself, as its people
//! can see them: `required` evidence states its variable's fact, an
//! entangled detail (`trap_critical` with a `paired_source`) becomes the
//! raw form of that evidence, decoys (`trap_decoy` with `pushes`) are soft
//! `toward` facts, and everything else carries no fact. A sanitized text
//! that no artifact carries is information nobody holds: it is not a form.

use std::collections::{BTreeMap, HashMap};

use super::build;
use super::cast::{by_name, labelled_form, labels, visible, Cast};
use super::json::{key_path, Report};
use super::names::identifier;
use super::seed::TaskFamily;
use super::{diagnostic::ImportError, map::AttributeSource, map::ImportedScenario, map::Written};
use crate::pisas::format::{AttributeValue, Bundle, UtilityFile};
use crate::sema::*;

/// A bundle exported by cici: its seed, with the bundle's labels and
/// visibility put back on every form.
pub fn from_cici(files: &Bundle, seed: &str, source: &str, r: &mut Report) -> Option<Written> {
    let (file, errors) = crate::syntax::parse(crate::span::SourceId(0), seed);
    let ast = file.scenarios.first();
    let mut sc = match (errors.is_empty(), ast.map(crate::sema::resolve)) {
        (true, Some(Ok(sc))) => sc,
        _ => {
            r.shape(
                "cici.seed",
                "the seed text of a scenario that parses and resolves",
            );
            return None;
        }
    };
    let by_name = by_name(&sc.people);
    // Bundle ids are neutral (`a1`) where `cici.ids` maps them; older
    // bundles used cici's own ids.
    let bundle_id: HashMap<String, String> = files
        .utility
        .cici
        .as_ref()
        .map(|c| c.ids.iter().map(|(b, f)| (f.clone(), b.clone())).collect())
        .unwrap_or_default();
    let mut attributes = BTreeMap::new();
    for a in sc.attributes.iter_mut() {
        for kind in [FormKind::Raw, FormKind::Sanitized] {
            let form_id = a.form_id(kind);
            let id = bundle_id
                .get(&form_id)
                .cloned()
                .unwrap_or_else(|| form_id.clone());
            let Some(form) = (match kind {
                FormKind::Raw => Some(&mut a.raw),
                FormKind::Sanitized => a.sanitized.as_mut(),
            }) else {
                continue;
            };
            match labels(files, &id) {
                Some(l) if files.appropriateness.attributes.contains_key(&id) => {
                    let holder = l.holder.as_ref().and_then(|n| by_name.get(n)).copied();
                    form.appropriate = l.appropriate;
                    form.visible = visible(&l.visible, &by_name, holder);
                }
                _ => r.push(
                    key_path("attributes", &id),
                    ImportError::Shape {
                        expected: format!("form `{id}` of the seed in the bundle"),
                        help: Some(
                            "the bundle lost an attribute its seed has; the seed's labels are kept"
                                .into(),
                        ),
                    },
                ),
            }
            attributes.insert(form_id, AttributeSource::Bundle(id));
        }
    }
    let oracle = oracle_text(&sc);
    Some(written(&sc, source, BTreeMap::new(), oracle, attributes))
}

/// The oracle as `import.json` states it: the level of a rule-based
/// scenario, else `<target>: <choice>` rows.
pub(super) fn oracle_text(sc: &Scenario) -> String {
    if let (Setting::Rule(ss), Decision::Rule(l)) = (&sc.setting, &sc.oracle) {
        return ss.levels[*l].id.clone();
    }
    crate::printer::decision_rows(sc, &sc.oracle)
        .into_iter()
        .map(|(t, v)| format!("{t}: {v}"))
        .collect::<Vec<_>>()
        .join("; ")
}

pub(super) fn written(
    sc: &Scenario,
    source: &str,
    configuration: BTreeMap<String, String>,
    oracle: String,
    attributes: BTreeMap<String, AttributeSource>,
) -> Written {
    let printed = crate::printer::print(sc);
    let text = crate::syntax::format(&printed).unwrap_or(printed);
    Written {
        text,
        entry: ImportedScenario {
            file: format!("{}.cici", sc.id),
            scenario: sc.id.clone(),
            source: source.to_string(),
            configuration,
            oracle,
            attributes,
            public: BTreeMap::new(),
            dropped: Vec::new(),
        },
    }
}

/// A bundle of a task family, read with the family's seed.
pub fn from_release(
    files: &Bundle,
    tf: &TaskFamily,
    source: &str,
    r: &mut Report,
) -> Option<Written> {
    let (scenario, utility) = (&files.scenario, &files.utility);
    let id = identifier(&scenario.scenario_id).unwrap_or_else(|| "bundle".into());
    let cast = Cast::read(scenario, r)?;
    let people = cast.people.clone();
    let config = release_configuration(utility, tf, r)?;
    let (attributes, sources) = release_attributes(files, tf, &cast, &config);
    let oracle_name = utility.oracle_answer.as_str();
    let oracle = release_oracle(oracle_name, tf, &config, r)?;
    let sc = super::build::policy_scenario(
        tf,
        id,
        people,
        attributes,
        oracle,
        scenario.task.description.as_deref(),
    );
    let configuration = tf
        .variables
        .iter()
        .zip(&config)
        .map(|(v, &s)| (v.key.clone(), v.states[s].id.clone()))
        .collect();
    Some(written(
        &sc,
        source,
        configuration,
        oracle_name.to_string(),
        sources,
    ))
}

/// The state of every variable, from the bundle's `categories`.
fn release_configuration(
    utility: &UtilityFile,
    tf: &TaskFamily,
    r: &mut Report,
) -> Option<Vec<usize>> {
    let mut config = vec![0usize; tf.variables.len()];
    for (v, var) in tf.variables.iter().enumerate() {
        let state = utility.categories.as_ref().and_then(|c| c.get(&var.key));
        match state.and_then(|s| var.states.iter().position(|x| &x.id == s)) {
            Some(s) => config[v] = s,
            None => {
                r.push(
                    key_path("categories", &var.key),
                    ImportError::Shape {
                        expected: format!("a state of `{}`", var.key),
                        help: Some("the bundle's categories give every variable's state".into()),
                    },
                );
                return None;
            }
        }
    }
    Some(config)
}

/// The bundle's attributes with their labels and facts, and where each
/// came from: evidence, an entangled detail with its paired evidence as
/// the sanitized form, or a decoy that pushes toward an outcome.
fn release_attributes(
    files: &Bundle,
    tf: &TaskFamily,
    cast: &Cast,
    config: &[usize],
) -> (Vec<Attribute>, BTreeMap<String, AttributeSource>) {
    let values = &files.utility.attribute_values;
    let by_name = cast.by_name();
    let mut attributes: Vec<Attribute> = Vec::new();
    let mut sources = BTreeMap::new();
    let paired: HashMap<&str, &str> = values
        .iter()
        .filter_map(|(k, v)| v.paired_source.as_deref().map(|p| (p, k.as_str())))
        .collect();
    let fact_of = |v: &AttributeValue| {
        v.variable.as_deref().and_then(|var| {
            let vi = tf.variables.iter().position(|x| x.key == var)?;
            Some(Predicate::Rule(RulePredicate::Evidence {
                variable: vi,
                value: config[vi],
            }))
        })
    };
    for (bid, v) in values {
        let text = v.value.as_str();
        let Some((holder, mut form)) = labelled_form(files, cast, bid, text, Vec::new()) else {
            continue;
        };
        let kind = v.kind.as_deref().unwrap_or_default();
        let fact = fact_of(v);
        let Some(aid) = identifier(bid) else { continue };
        if kind == "required" {
            // An entangled detail paired with this evidence is its raw form.
            if paired.contains_key(bid.as_str()) {
                continue;
            }
            form.facts = fact.into_iter().map(Fact::derived).collect();
            sources.insert(aid.clone(), AttributeSource::Bundle(bid.clone()));
            attributes.push(Attribute::derived(
                aid,
                holder,
                None,
                form,
                None,
                Vec::new(),
            ));
        } else if let Some(p) = v.paired_source.as_deref() {
            let Some(pv) = values.get(p) else { continue };
            let Some(pl) = labels(files, p) else { continue };
            // The evidence the detail is fused with states the fact.
            let fact = fact_of(pv).or(fact);
            let sanitized = build::form(
                pv.value.clone(),
                pl.appropriate,
                visible(&pl.visible, by_name, Some(holder)),
                fact.into_iter().collect(),
            );
            sources.insert(aid.clone(), AttributeSource::Bundle(bid.clone()));
            sources.insert(
                format!("{aid}.sanitized"),
                AttributeSource::Bundle(p.to_string()),
            );
            attributes.push(Attribute::derived(
                aid,
                holder,
                None,
                form,
                Some(sanitized),
                Vec::new(),
            ));
        } else {
            let soft = v
                .pushes
                .as_deref()
                .and_then(|o| tf.outcomes.iter().position(|x| x == o))
                .map(|level| Predicate::Rule(RulePredicate::Toward { level }))
                .into_iter()
                .collect();
            sources.insert(aid.clone(), AttributeSource::Bundle(bid.clone()));
            attributes.push(Attribute::derived(aid, holder, None, form, None, soft));
        }
    }
    (attributes, sources)
}

/// The bundle's oracle among the seed's outcomes; a disagreement with the
/// seed's rules is reported, and left for `cici check` to decide.
fn release_oracle(
    oracle_name: &str,
    tf: &TaskFamily,
    config: &[usize],
    r: &mut Report,
) -> Option<usize> {
    let Some(oracle) = tf.outcomes.iter().position(|o| o == oracle_name) else {
        r.push(
            "oracle_answer",
            ImportError::UnknownName {
                kind: "outcome of the seed".into(),
                name: oracle_name.into(),
                help: None,
            },
        );
        return None;
    };
    if tf.outcome(config) != Some(oracle) {
        r.push(
            "oracle_answer",
            ImportError::Shape {
                expected: format!(
                    "the outcome the seed's rules give ({})",
                    tf.outcome(config).map_or("none", |o| tf.outcomes[o].as_str())
                ),
                help: Some("the bundle's categories and oracle disagree with the seed; `cici check` decides".into()),
            },
        );
    }
    Some(oracle)
}
