//! The PiSAs release's bundle files, and its task-family seeds (`seed`), as
//! types: the only spelling of their JSON. `export pisas` writes these types and `import pisas-bundle` reads
//! them; a file that does not fit its type is reported at the JSON path of
//! every part that does not fit (see `pisas::import::typed`).
//!
//! Field order is the order the files are written in. Fields the release
//! writes and cici neither writes nor reads are left out: reading ignores
//! them. Optional fields are `Option`s, never silent defaults, except
//! lists and maps whose absence means empty.

mod field;
mod labels;
mod scenario;
pub mod seed;
mod utility;

pub use field::Field;

pub use labels::{AppropriatenessFile, Label, Visibility, VisibilityFile};
pub use scenario::{
    Artifact, Cast, CastMember, MeetingEntry, Org, Participant, PersonEntry, RoomEntry,
    ScenarioFile, SlotEntry, Subject, Task, Team,
};
pub use utility::{
    AttributeValue, CiciSection, Count, Defect, HiddenConstraint, HiddenPrivate, Placement,
    UtilityFile,
};

/// One file of a bundle: its name in the bundle folder.
pub trait BundleFile:
    serde::de::DeserializeOwned + serde::Serialize + schemars::JsonSchema
{
    const NAME: &'static str;
}

impl BundleFile for ScenarioFile {
    const NAME: &'static str = "scenario.json";
}

impl BundleFile for UtilityFile {
    const NAME: &'static str = "utility.json";
}

impl BundleFile for AppropriatenessFile {
    const NAME: &'static str = "appropriateness.json";
}

impl BundleFile for VisibilityFile {
    const NAME: &'static str = "visibility.json";
}

/// The four files of a bundle, typed.
#[derive(Clone, Debug, PartialEq)]
pub struct Bundle {
    pub scenario: ScenarioFile,
    pub utility: UtilityFile,
    pub appropriateness: AppropriatenessFile,
    pub visibility: VisibilityFile,
}

impl Bundle {
    /// The four files as the folder holds them: each name and its JSON
    /// text, pretty-printed with a final newline.
    pub fn texts(&self) -> [(&'static str, String); 4] {
        fn text<T: BundleFile>(t: &T) -> (&'static str, String) {
            let json = serde_json::to_string_pretty(t).expect("bundle files serialize");
            (T::NAME, json + "\n")
        }
        [
            text(&self.scenario),
            text(&self.utility),
            text(&self.appropriateness),
            text(&self.visibility),
        ]
    }
}
