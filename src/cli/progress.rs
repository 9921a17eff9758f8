//! The binary's side of the core's progress reports: an indicatif bar on a terminal,
//! nothing otherwise.

use std::io::IsTerminal;
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};

use openclaw_sessions::progress::Progress;

pub struct Bar {
    bar: Mutex<Option<ProgressBar>>,
    enabled: bool,
    prefix: String,
}

impl Bar {
    pub fn new(ctx: &super::Ctx, prefix: &str) -> Self {
        let enabled = std::io::stderr().is_terminal()
            && !ctx.printer.json
            && !ctx.printer.quiet
            && !ctx.global.no_progress;
        Bar {
            bar: Mutex::new(None),
            enabled,
            prefix: prefix.to_string(),
        }
    }
}

impl Progress for Bar {
    fn start(&self, label: &str, total: Option<u64>) {
        if !self.enabled {
            return;
        }
        let mut slot = self.bar.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(old) = slot.take() {
            old.finish_and_clear();
        }
        let bar = match total {
            Some(t) => ProgressBar::new(t).with_style(
                ProgressStyle::with_template(
                    "{prefix} {msg:12} [{bar:30}] {percent:>3}% {elapsed}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            ),
            None => ProgressBar::new_spinner().with_style(
                ProgressStyle::with_template("{prefix} {msg} {spinner} {elapsed}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            ),
        };
        bar.set_prefix(self.prefix.clone());
        bar.set_message(label.to_string());
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        *slot = Some(bar);
    }

    fn advance(&self, delta: u64) {
        if let Some(b) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            b.inc(delta);
        }
    }

    fn finish(&self) {
        if let Some(b) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).take() {
            b.finish_and_clear();
        }
    }
}
