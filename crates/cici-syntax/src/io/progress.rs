//! A progress bar for long work.

use std::sync::atomic::AtomicBool;

/// Whether bars are hidden: the command line's `--quiet` says so through
/// [`hide_progress`], so that this layer reads nothing of a later one.
static HIDDEN: AtomicBool = AtomicBool::new(false);

/// Hides (or shows again) every bar made after it.
pub fn hide_progress(hidden: bool) {
    HIDDEN.store(hidden, std::sync::atomic::Ordering::Relaxed);
}

/// A progress bar on stderr with the `progress` feature; nothing without.
pub struct Progress {
    #[cfg(feature = "progress")]
    bar: indicatif::ProgressBar,
}

impl Progress {
    /// A bar over `len` items, counted as `unit`.
    pub fn new(len: usize, unit: &str) -> Progress {
        #[cfg(feature = "progress")]
        {
            let bar = if HIDDEN.load(std::sync::atomic::Ordering::Relaxed) {
                indicatif::ProgressBar::hidden()
            } else {
                indicatif::ProgressBar::new(len as u64)
            };
            bar.set_style(
                indicatif::ProgressStyle::with_template(&format!(
                    "{{bar:30}} {{pos}}/{{len}} {unit}, {{msg}}"
                ))
                .expect("a valid progress template"),
            );
            Progress { bar }
        }
        #[cfg(not(feature = "progress"))]
        {
            let _ = (len, unit);
            Progress {}
        }
    }

    pub fn inc(&self, n: u64) {
        #[cfg(feature = "progress")]
        self.bar.inc(n);
        #[cfg(not(feature = "progress"))]
        let _ = n;
    }

    pub fn set_message(&self, message: String) {
        #[cfg(feature = "progress")]
        self.bar.set_message(message);
        #[cfg(not(feature = "progress"))]
        let _ = message;
    }

    pub fn finish_and_clear(&self) {
        #[cfg(feature = "progress")]
        self.bar.finish_and_clear();
    }
}
