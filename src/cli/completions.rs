use clap::Args;
use clap_complete::Shell;

use super::exit::Outcome;
use super::Ctx;

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// bash, zsh, fish, powershell or elvish.
    shell: Shell,
}

pub fn run(ctx: &Ctx, args: &CompletionsArgs) -> anyhow::Result<Outcome> {
    let mut buf = Vec::new();
    clap_complete::generate(
        args.shell,
        &mut super::command(),
        "openclaw-sessions",
        &mut buf,
    );
    ctx.printer.out(&String::from_utf8(buf)?)?;
    Ok(Outcome::Done)
}
