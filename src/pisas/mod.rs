//! The PiSAs release's formats: the bundle files as types, which the
//! writer (`export::pisas`) and the readers (`import`) share.

pub mod format;
