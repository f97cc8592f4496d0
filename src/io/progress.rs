//! A progress bar for long work.

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
            #[cfg(feature = "cli")]
            let quiet = crate::cli::output::verbosity() == crate::cli::output::Verbosity::Quiet;
            #[cfg(not(feature = "cli"))]
            let quiet = false;
            let bar = if quiet {
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
