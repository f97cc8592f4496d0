//! The categories of an attribute: personal ones and context.

use schemars::JsonSchema;
use serde::Serialize;

/// The category of an attribute.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    serde::Deserialize,
    JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Health,
    MentalHealth,
    Family,
    Relationships,
    Legal,
    Financial,
    Employment,
    Performance,
    Identity,
    Contact,
    Location,
    Beliefs,
    Pressure,
    Speculation,
    Preference,
    Background,
    Operational,
}

impl Category {
    pub const ALL: [Category; 17] = [
        Category::Health,
        Category::MentalHealth,
        Category::Family,
        Category::Relationships,
        Category::Legal,
        Category::Financial,
        Category::Employment,
        Category::Performance,
        Category::Identity,
        Category::Contact,
        Category::Location,
        Category::Beliefs,
        Category::Pressure,
        Category::Speculation,
        Category::Preference,
        Category::Background,
        Category::Operational,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Category::Health => "health",
            Category::MentalHealth => "mental_health",
            Category::Family => "family",
            Category::Relationships => "relationships",
            Category::Legal => "legal",
            Category::Financial => "financial",
            Category::Employment => "employment",
            Category::Performance => "performance",
            Category::Identity => "identity",
            Category::Contact => "contact",
            Category::Location => "location",
            Category::Beliefs => "beliefs",
            Category::Pressure => "pressure",
            Category::Speculation => "speculation",
            Category::Preference => "preference",
            Category::Background => "background",
            Category::Operational => "operational",
        }
    }

    /// What a detail of this category concerns, in words a privacy note
    /// can use: "their health", "a legal matter".
    pub fn concerns(self) -> &'static str {
        match self {
            Category::Health => "their health",
            Category::MentalHealth => "their mental health",
            Category::Family => "their family",
            Category::Relationships => "their private relationships",
            Category::Legal => "a legal matter",
            Category::Financial => "their finances",
            Category::Employment => "their employment",
            Category::Performance => "their performance",
            Category::Identity => "their identity",
            Category::Contact => "their contact details",
            Category::Location => "their whereabouts",
            Category::Beliefs => "their beliefs",
            Category::Pressure => "a colleague's wishes",
            Category::Speculation => "a guess",
            Category::Preference => "a preference",
            Category::Background => "their circumstances",
            Category::Operational => "the work",
        }
    }

    pub fn from_name(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The category a word usually means, for words that are not a
    /// category's name: `medical` is `health`, `salary` is `financial`.
    pub fn by_meaning(word: &str) -> Option<Category> {
        let w = word.to_ascii_lowercase();
        let pick = |words: &[&str]| words.iter().any(|x| w == *x);
        Some(
            if pick(&[
                "medical",
                "medicine",
                "illness",
                "sickness",
                "disability",
                "diagnosis",
                "treatment",
            ]) {
                Category::Health
            } else if pick(&[
                "therapy",
                "psychological",
                "psychiatric",
                "counselling",
                "counseling",
                "stress",
                "anxiety",
            ]) {
                Category::MentalHealth
            } else if pick(&[
                "salary", "pay", "money", "debt", "finance", "finances", "income", "payroll",
            ]) {
                Category::Financial
            } else if pick(&[
                "divorce", "dating", "romance", "marriage", "partner", "breakup",
            ]) {
                Category::Relationships
            } else if pick(&["lawsuit", "court", "criminal", "immigration", "visa"]) {
                Category::Legal
            } else if pick(&["childcare", "children", "kids", "parent", "caregiving"]) {
                Category::Family
            } else if pick(&["review", "appraisal", "rating"]) {
                Category::Performance
            } else if pick(&["job", "career", "interviewing", "resignation", "hiring"]) {
                Category::Employment
            } else if pick(&["religion", "religious", "faith", "political", "politics"]) {
                Category::Beliefs
            } else if pick(&["address", "phone", "email"]) {
                Category::Contact
            } else {
                return None;
            },
        )
    }

    /// Personal and sensitive, as opposed to context.
    pub fn is_personal(self) -> bool {
        (self as usize) <= (Category::Beliefs as usize)
    }
}
