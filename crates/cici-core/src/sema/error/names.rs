//! What a resolve error says about the name it could not resolve.

use miette::SourceSpan;

use super::ResolveError;

impl ResolveError {
    /// For a name that resolved to nothing: where it stands and the help
    /// that goes with it (with the close match it suggests, if any).
    pub fn unknown_name(&self) -> Option<(SourceSpan, Option<&crate::suggest::Help>)> {
        use ResolveError::*;
        match self {
            UnknownFamily { span, help, .. }
            | UnknownPerson { span, help, .. }
            | UnknownRoom { span, help, .. }
            | UnknownMeeting { span, help, .. }
            | UnknownTicket { span, help, .. }
            | UnknownFeature { span, help, .. }
            | UnknownSkill { span, help, .. }
            | UnknownLevel { span, help, .. }
            | UnknownOutcome { span, help, .. }
            | UnknownVariable { span, help, .. }
            | UnknownValue { span, help, .. }
            | UnknownCategory { span, help, .. }
            | UnknownNormKind { span, help, .. }
            | UnknownRecipient { span, help, .. }
            | UnknownPredicate { span, help, .. } => Some((*span, help.as_ref())),
            _ => None,
        }
    }
}
