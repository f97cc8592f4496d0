//! Flag values that clap cannot read on its own, each with a typed error
//! that says what the flag takes.

use super::Shard;
use crate::counterfactual::Split;
use crate::render::{Condition, Cue};

/// A flag value that is not of the flag's form.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ValueError {
    #[error("`{0}` is not a cue condition: none, privacy, sanitized or combined")]
    Cue(String),
    #[error("`{0}` is not three whole percentages, e.g. 80,10,10")]
    SplitNumbers(String),
    #[error("`{0}` is not three percentages (train, validation, test)")]
    SplitCount(String),
    #[error("`{0}`: the percentages must sum to 100, with some share for train")]
    SplitSum(String),
    #[error("`{0}` is not I/N, e.g. 1/4")]
    ShardForm(String),
    #[error("`{0}` is not a number")]
    NotANumber(String),
    #[error("shard {index}/{count}: I must be between 1 and N")]
    ShardRange { index: usize, count: usize },
    #[error("`{name}` is not a condition; the conditions are {}", .all.join(", "))]
    Condition { name: String, all: Vec<String> },
}

/// `--cues`: a cue condition by name.
pub(super) fn cue(s: &str) -> Result<Cue, ValueError> {
    Cue::from_name(s.trim()).ok_or_else(|| ValueError::Cue(s.to_string()))
}

/// `--split`: train, validation and test percentages.
pub(super) fn split(s: &str) -> Result<Split, ValueError> {
    let parts: Vec<u32> = s
        .split(',')
        .map(|p| p.trim().parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|_| ValueError::SplitNumbers(s.to_string()))?;
    let [train, validation, test] = parts[..] else {
        return Err(ValueError::SplitCount(s.to_string()));
    };
    if train + validation + test != 100 || train == 0 {
        return Err(ValueError::SplitSum(s.to_string()));
    }
    Ok(Split {
        train,
        validation,
        test,
    })
}

/// `--shard I/N`.
pub(super) fn shard(s: &str) -> Result<Shard, ValueError> {
    let (i, n) = s
        .split_once('/')
        .ok_or_else(|| ValueError::ShardForm(s.to_string()))?;
    let number = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| ValueError::NotANumber(t.to_string()))
    };
    let (index, count) = (number(i)?, number(n)?);
    if count == 0 || index == 0 || index > count {
        return Err(ValueError::ShardRange { index, count });
    }
    Ok(Shard { index, count })
}

/// `--conditions`: a condition by name.
pub(super) fn condition(name: &str) -> Result<Condition, ValueError> {
    Condition::from_name(name).ok_or_else(|| ValueError::Condition {
        name: name.to_string(),
        all: Condition::all().into_iter().map(|c| c.name()).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_flag_value_reads_or_says_what_the_flag_takes() {
        assert_eq!(cue(" combined "), Ok(Cue::Combined));
        assert_eq!(cue("loud"), Err(ValueError::Cue("loud".into())));
        assert_eq!(split("70, 20, 10").map(|s| s.validation), Ok(20));
        assert_eq!(split("80,10"), Err(ValueError::SplitCount("80,10".into())));
        assert_eq!(
            split("0,50,50"),
            Err(ValueError::SplitSum("0,50,50".into()))
        );
        assert_eq!(
            split("a,b,c"),
            Err(ValueError::SplitNumbers("a,b,c".into()))
        );
        assert_eq!(shard("2/4").map(|s| (s.index, s.count)), Ok((2, 4)));
        assert_eq!(
            shard("3/2").map(|s| s.index),
            Err(ValueError::ShardRange { index: 3, count: 2 })
        );
        assert_eq!(
            shard("x/2").map(|s| s.index),
            Err(ValueError::NotANumber("x".into()))
        );
        assert!(condition("combined-strict").is_ok());
        let e = condition("nope").unwrap_err();
        assert!(e.to_string().contains("none-strict"), "{e}");
    }
}
