//! The cici extension for Zed: starts the cici language server (`cici
//! lsp`) for `.cici` seeds. The binary is the one the `lsp.cici.binary.path`
//! setting names, else `cici` on the worktree's `PATH`.

use zed_extension_api::{self as zed, settings::LspSettings, LanguageServerId, Result};

struct Cici;

/// What to tell a user whose editor cannot find the binary.
const MISSING: &str = "cici is not on PATH: install it with `cargo install --path .` in the \
cici repository, or set `lsp.cici.binary.path` in Zed's settings";

impl zed::Extension for Cici {
    fn new() -> Self {
        Cici
    }

    fn language_server_command(
        &mut self,
        _language_server_id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<zed::Command> {
        let binary = LspSettings::for_worktree("cici", worktree)
            .ok()
            .and_then(|s| s.binary);
        let configured = binary.as_ref().and_then(|b| b.path.clone());
        let command = configured
            .or_else(|| worktree.which("cici"))
            .ok_or_else(|| MISSING.to_string())?;
        let mut args = vec!["lsp".to_string()];
        args.extend(binary.and_then(|b| b.arguments).unwrap_or_default());
        Ok(zed::Command {
            command,
            args,
            env: worktree.shell_env(),
        })
    }
}

zed::register_extension!(Cici);
