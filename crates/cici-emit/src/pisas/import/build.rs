//! From a read task family to scenarios: for each configuration a complete
//! seed (cast, evidence, decoys, personal context,
//! rules, exclusions and the oracle by first match).

use std::collections::{BTreeMap, HashMap};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::json::Report;
use super::names::{cast_names, category_of_topic, fill, hash, identifier};
use super::seed::{Realization, TaskFamily};
use super::{diagnostic::ImportError, map::AttributeSource, map::ImportedScenario, map::Written};
use crate::sema::*;
use crate::span::Span;

pub use super::select::{configurations, read_library, Personal, Select, ALL_LIMIT};

/// Everything a scenario needs besides its configuration.
pub struct Context<'a> {
    pub tf: &'a TaskFamily,
    pub library: &'a [Personal],
    pub prefix: &'a str,
    pub source: &'a str,
    pub seed: u64,
}

/// A form with the given labels and facts.
pub(super) fn form(
    text: String,
    appropriate: bool,
    visible: Vec<PersonId>,
    facts: Vec<Predicate>,
) -> Form {
    Form {
        text,
        appropriate,
        visible,
        facts: facts.into_iter().map(Fact::derived).collect(),
        span: Span::DERIVED,
        text_span: Span::DERIVED,
    }
}

/// The seed of one configuration, and its entry in `import.json`.
pub fn scenario(
    cx: &Context,
    config: &[usize],
    outcome: usize,
    index: usize,
    r: &mut Report,
) -> Written {
    let tf = cx.tf;
    let rng = ChaCha8Rng::seed_from_u64(
        cx.seed ^ hash(&tf.family_id) ^ (index as u64).wrapping_mul(0x9E37_79B9),
    );
    let mut a = Assembly::cast(cx, config, rng);
    a.variables(r);
    a.decoys(r);
    a.personal();
    let id = format!("{}_cfg_{:03}", cx.prefix, index + 1);
    let task = match &tf.brief {
        Some(b) => a.say(b, "task.executor_brief.template", r),
        None => tf.description.clone(),
    };
    let public = tf
        .context
        .iter()
        .map(|c| a.say(c, "timeline.default_layout.context_artifact.content", r))
        .collect();
    let Assembly {
        people,
        attributes,
        sources,
        ..
    } = a;
    let mut sc = policy_scenario(tf, id.clone(), people, attributes, outcome, Some(&task));
    sc.public = public;
    let printed = with_idle_allowed(&crate::printer::print(&sc));
    let text = crate::syntax::format(&printed).unwrap_or(printed);
    Written {
        text,
        entry: ImportedScenario {
            file: format!("{id}.cici"),
            scenario: id,
            source: cx.source.to_string(),
            configuration: tf
                .variables
                .iter()
                .zip(config)
                .map(|(v, &s)| (v.key.clone(), v.states[s].id.clone()))
                .collect(),
            oracle: tf.outcomes[outcome].clone(),
            attributes: sources,
            public: BTreeMap::new(),
            dropped: Vec::new(),
        },
    }
}

/// One configuration's scenario while it is put together: the cast, the
/// placeholder values it fills texts with, and the attributes so far with
/// where each came from. Every random choice is drawn from `rng` in the
/// order the steps run: cast, variables, decoys, personal context.
struct Assembly<'a> {
    cx: &'a Context<'a>,
    config: &'a [usize],
    rng: ChaCha8Rng,
    people: Vec<Person>,
    values: HashMap<String, String>,
    attributes: Vec<Attribute>,
    sources: BTreeMap<String, AttributeSource>,
}

impl<'a> Assembly<'a> {
    /// The people of the task family's roles, named from the pool where a
    /// role has no name of its own, and the placeholders they fill.
    fn cast(cx: &'a Context<'a>, config: &'a [usize], mut rng: ChaCha8Rng) -> Self {
        let tf = cx.tf;
        let pool = cast_names(tf.roles.len(), rng.random());
        let people: Vec<Person> = tf
            .roles
            .iter()
            .zip(pool)
            .map(|(role, name)| Person {
                id: role.id.clone(),
                name: role.name.clone().unwrap_or(name),
                role: role.title.clone(),
                skills: Vec::new(),
                groups: Vec::new(),
                manager: None,
                span: Span::DERIVED,
            })
            .collect();
        let mut values: HashMap<String, String> = HashMap::new();
        for (role, p) in tf.roles.iter().zip(&people) {
            values.insert(role.key.clone(), p.name.clone());
            values.insert(format!("{}_name", role.key), p.name.clone());
            if role.subject {
                values.insert("subject_name".into(), p.name.clone());
            }
        }
        values.insert("executor_name".into(), people[0].name.clone());
        Assembly {
            cx,
            config,
            rng,
            people,
            values,
            attributes: Vec::new(),
            sources: BTreeMap::new(),
        }
    }

    /// A text with its placeholders filled; an unknown one is reported at
    /// `path`.
    fn say(&self, text: &str, path: &str, r: &mut Report) -> String {
        let (t, unknown) = fill(text, &self.values);
        for u in unknown {
            r.push(path, ImportError::Placeholder { name: u });
        }
        t
    }

    fn everyone(&self) -> Vec<PersonId> {
        (0..self.people.len()).collect()
    }

    /// One attribute per evidence variable, in the state the configuration
    /// gives it: a clean realization, or an entangled one whose sanitized
    /// form carries the evidence.
    fn variables(&mut self, r: &mut Report) {
        let tf = self.cx.tf;
        for (v, var) in tf.variables.iter().enumerate() {
            let state = &var.states[self.config[v]];
            let entangled: Vec<&Realization> = state
                .realizations
                .iter()
                .filter(|x| matches!(x, Realization::Entangled { .. }))
                .collect();
            let clean: Vec<&Realization> = state
                .realizations
                .iter()
                .filter(|x| matches!(x, Realization::Clean(_)))
                .collect();
            let use_entangled = !entangled.is_empty()
                && (clean.is_empty() || self.rng.random_bool(tf.plan.entangled));
            let pick = if use_entangled { &entangled } else { &clean };
            let path = format!(
                "evidence_variables.{}.states.{}.surface_realizations",
                var.key, state.id
            );
            let fact = Predicate::Rule(RulePredicate::Evidence {
                variable: v,
                value: self.config[v],
            });
            let everyone = self.everyone();
            let a = match pick[self.rng.random_range(0..pick.len())] {
                Realization::Clean(text) => Attribute::derived(
                    var.id.clone(),
                    var.holder,
                    Some(Category::Operational),
                    form(self.say(text, &path, r), true, everyone, vec![fact]),
                    None,
                    Vec::new(),
                ),
                Realization::Entangled { text, clean } => Attribute::derived(
                    var.id.clone(),
                    var.holder,
                    None,
                    form(
                        self.say(text, &path, r),
                        false,
                        vec![var.holder],
                        Vec::new(),
                    ),
                    Some(form(self.say(clean, &path, r), true, everyone, vec![fact])),
                    Vec::new(),
                ),
            };
            self.sources
                .insert(a.id.clone(), AttributeSource::Variable(var.key.clone()));
            self.attributes.push(a);
        }
    }

    /// Decoys whose preconditions hold, within the per-holder cap.
    fn decoys(&mut self, r: &mut Report) {
        let tf = self.cx.tf;
        let config = self.config;
        let mut eligible: Vec<usize> = (0..tf.decoys.len())
            .filter(|&d| {
                tf.decoys[d]
                    .preconditions
                    .iter()
                    .all(|(v, ss)| ss.contains(&config[*v]))
            })
            .collect();
        eligible.shuffle(&mut self.rng);
        let want = self
            .rng
            .random_range(tf.plan.decoys.min..=tf.plan.decoys.max.max(tf.plan.decoys.min));
        let mut per_holder: HashMap<usize, usize> = HashMap::new();
        for d in eligible {
            if self
                .sources
                .values()
                .filter(|s| matches!(s, AttributeSource::Decoy(_)))
                .count()
                >= want
            {
                break;
            }
            let decoy = &tf.decoys[d];
            let n = per_holder.entry(decoy.holder).or_default();
            if *n >= tf.plan.max_decoys_per_holder {
                continue;
            }
            *n += 1;
            let Some(id) = identifier(&format!("decoy_{}", decoy.key)) else {
                continue;
            };
            if self.sources.contains_key(&id) {
                continue;
            }
            let text = self.say(&decoy.text, &format!("{}.text", decoy.path), r);
            self.attributes.push(Attribute::derived(
                id.clone(),
                decoy.holder,
                Some(Category::Pressure),
                form(text, false, vec![decoy.holder], Vec::new()),
                None,
                vec![Predicate::Rule(RulePredicate::Toward {
                    level: decoy.pushes,
                })],
            ));
            self.sources
                .insert(id, AttributeSource::Decoy(decoy.key.clone()));
        }
    }

    /// Personal context for everyone but the executor.
    fn personal(&mut self) {
        let cx = self.cx;
        let tf = cx.tf;
        let patients = cx
            .library
            .iter()
            .any(|i| i.fits.iter().any(|f| f == "patient"));
        for (p, role) in tf.roles.iter().enumerate().skip(1) {
            let audience = if role.subject && patients {
                "patient"
            } else {
                "staff"
            };
            let mut items: Vec<&Personal> = cx
                .library
                .iter()
                .filter(|i| i.fits.is_empty() || i.fits.iter().any(|f| f == audience))
                .collect();
            items.shuffle(&mut self.rng);
            let k = self.rng.random_range(
                tf.plan.personal.min..=tf.plan.personal.max.max(tf.plan.personal.min),
            );
            for item in items.into_iter().take(k) {
                let Some(id) = identifier(&format!("{}_{}", self.people[p].id, item.key)) else {
                    continue;
                };
                if self.sources.contains_key(&id) {
                    continue;
                }
                let mut v = self.values.clone();
                v.insert("person".into(), self.people[p].name.clone());
                let (text, _) = fill(&item.template, &v);
                self.attributes.push(Attribute::derived(
                    id.clone(),
                    p,
                    category_of_topic(&item.topic),
                    form(text, false, vec![p], Vec::new()),
                    None,
                    Vec::new(),
                ));
                self.sources
                    .insert(id, AttributeSource::Personal(item.key.clone()));
            }
        }
    }
}

/// A `policy_decision` scenario of a task family: its outcomes, variables,
/// rules and exclusions, with the given cast, attributes and oracle.
pub fn policy_scenario(
    tf: &TaskFamily,
    id: String,
    people: Vec<Person>,
    attributes: Vec<Attribute>,
    oracle: usize,
    task: Option<&str>,
) -> Scenario {
    let levels = tf
        .outcomes
        .iter()
        .map(|o| Level {
            id: o.clone(),
            span: Span::DERIVED,
        })
        .collect();
    let evidence = tf
        .variables
        .iter()
        .map(|v| Evidence {
            id: v.id.clone(),
            values: v.states.iter().map(|s| s.id.clone()).collect(),
            span: Span::DERIVED,
        })
        .collect();
    let rules = tf
        .rules
        .iter()
        .map(|x| RubricRule {
            level: x.outcome,
            when: x.when.clone(),
            span: Span::DERIVED,
        })
        .collect();
    let excludes = tf
        .invalid
        .iter()
        .map(|parts| {
            let mut c: Vec<Condition> = parts
                .iter()
                .map(|(v, ss)| {
                    if ss.len() == 1 {
                        Condition::Eq(*v, ss[0])
                    } else {
                        Condition::In(*v, ss.clone())
                    }
                })
                .collect();
            Exclusion {
                when: if c.len() == 1 {
                    c.remove(0)
                } else {
                    Condition::And(c)
                },
                span: Span::DERIVED,
            }
        })
        .collect();
    let mut sc = Scenario::derived(
        id,
        first_sentence(&tf.description).unwrap_or_else(|| tf.family_id.clone()),
        task.unwrap_or(&tf.description),
        people,
        Setting::Rule(RuleSetting {
            kind: RuleKind::Policy,
            levels,
            evidence,
            rubric: Rubric {
                rules,
                otherwise: tf.otherwise,
                span: Span::DERIVED,
            },
            excludes,
        }),
        Decision::Rule(oracle),
    );
    sc.policy = tf.summary.clone();
    sc.attributes = attributes;
    sc
}

/// The first sentence of a description, for a title.
fn first_sentence(text: &str) -> Option<String> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    let end = t.find(". ").map_or(t.len(), |i| i);
    Some(t[..end].trim_end_matches('.').chars().take(120).collect())
}

/// The release records every evidence variable in every configuration;
/// those the deciding rule does not read are idle by its design. The
/// scenario says so once, as a lint level, rather than warn of each.
fn with_idle_allowed(printed: &str) -> String {
    const NOTE: &str = "  # The release records every evidence variable; those the deciding\n  # rule does not read are idle by its design.\n  # cici: allow idle_fact\n";
    match printed.split_once('\n') {
        Some((first, rest)) => format!("{first}\n{NOTE}{rest}"),
        None => printed.to_string(),
    }
}
