//! Pinning the oracle: new attributes that make the oracle the only allowed
//! decision again, after a fix removed a fact or where a seed is not
//! unique.

use super::*;

/// After a removal, the fix that makes the oracle unique again, with its
/// edits in the coordinates of the text before the removal; `None` when the
/// oracle is unique without it, or cannot be pinned.
pub(super) fn pin_after(
    sc: &Scenario,
    text: &str,
    removal: &Edit,
    options: &Options,
) -> Option<Fix> {
    let fixed = apply(text, std::slice::from_ref(removal))?;
    let mut run = Run::new();
    run.check_text("fixed", fixed.clone(), options);
    let checked = run.checked.iter().find(|c| c.scenario.id == sc.id)?;
    if checked.report.unique || !checked.report.oracle_allowed {
        return None;
    }
    let mut fix = pin_oracle(&checked.scenario, &fixed, options)?;
    let shift = removal.length - removal.replacement.len();
    for e in &mut fix.edits {
        if e.offset > removal.offset {
            e.offset += shift;
        }
    }
    Some(fix)
}

/// New attributes that make the oracle the only allowed decision, inserted
/// before the `oracle` statement. The search honours the check's bound
/// (`--max-solve-ms`; an hour when the check is unbounded).
pub(super) fn pin_oracle(sc: &Scenario, text: &str, options: &Options) -> Option<Fix> {
    let bound = options
        .max_solve
        .unwrap_or(std::time::Duration::from_secs(3600));
    let deadline = std::time::Instant::now() + bound;
    let facts = crate::planted::pin_oracle(sc, deadline)?;
    if facts.is_empty() {
        return None;
    }
    let mut work = sc.clone();
    let first = work.attributes.len();
    // Drawn per scenario, so that fix-its differ between scenarios, and
    // the same for the same scenario on every run.
    let seed = sc.id.bytes().fold(facts.len() as u64, |h, b| {
        h.wrapping_mul(0x100_0000_01b3) ^ u64::from(b)
    });
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let executor = work.executor;
    for p in &facts {
        let holder = p
            .subject()
            .unwrap_or_else(|| (0..work.people.len()).find(|&i| i != executor).unwrap_or(0));
        crate::planted::add_operational_fact(&mut work, holder, p.clone(), &mut rng);
    }
    let mut block = String::new();
    let mut taken: Vec<String> = sc.attributes.iter().map(|a| a.id.clone()).collect();
    for a in &mut work.attributes[first..] {
        let base = format!(
            "{}_{}",
            sc.people[a.holder].id,
            a.fact_form().1.facts[0].predicate.spec().id_word
        );
        a.id = fresh_id(&taken, &base);
        taken.push(a.id.clone());
    }
    for a in &work.attributes[first..] {
        crate::printer::attribute(&mut block, &work, a);
    }
    let oracle = sc.oracle_span.start as usize;
    let line_start = crate::syntax::lex::line_start(text, oracle);
    let edit = if text[line_start..oracle].trim().is_empty() {
        Edit {
            offset: line_start,
            length: 0,
            replacement: block.clone(),
        }
    } else {
        Edit {
            offset: oracle,
            length: 0,
            replacement: format!("\n{block}  "),
        }
    };
    Some(Fix {
        message: format!(
            "add {} that rule{} out every other decision and keep{} the oracle (the texts are suggestions):\n{}",
            if facts.len() == 1 { "a fact".to_string() } else { format!("{} facts", facts.len()) },
            if facts.len() == 1 { "s" } else { "" },
            if facts.len() == 1 { "s" } else { "" },
            block.trim_end()
        ),
        unambiguous: false,
        edits: vec![edit],
    })
}

/// `base`, or `base_2`, `base_3`, ...: the first id not in `taken`.
fn fresh_id(taken: &[String], base: &str) -> String {
    let mut id = base.to_string();
    let mut k = 2;
    while taken.contains(&id) {
        id = format!("{base}_{k}");
        k += 1;
    }
    id
}
