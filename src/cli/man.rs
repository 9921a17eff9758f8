use std::path::{Path, PathBuf};

use clap::Args;

use super::exit::Outcome;
use super::Ctx;

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write one page per command into DIR (openclaw-sessions.1, openclaw-sessions-list.1, ...);
    /// without it the main page goes to stdout.
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
}

fn render(cmd: &clap::Command) -> anyhow::Result<Vec<u8>> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut buf)?;
    Ok(buf)
}

/// Every page: the tool and each (nested) subcommand, named `a-b-c.1`.
fn pages(
    cmd: &clap::Command,
    prefix: &str,
    out: &mut Vec<(String, Vec<u8>)>,
) -> anyhow::Result<()> {
    let name = if prefix.is_empty() {
        cmd.get_name().to_string()
    } else {
        format!("{prefix}-{}", cmd.get_name())
    };
    let page_cmd = cmd
        .clone()
        .name(name.clone())
        .bin_name(name.replace('-', " "));
    out.push((format!("{name}.1"), render(&page_cmd)?));
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        pages(sub, &name, out)?;
    }
    Ok(())
}

pub fn write_all(dir: &Path) -> anyhow::Result<usize> {
    let mut cmd = super::command();
    cmd.build();
    let mut out = Vec::new();
    pages(&cmd, "", &mut out)?;
    std::fs::create_dir_all(dir)?;
    for (name, bytes) in &out {
        std::fs::write(dir.join(name), bytes)?;
    }
    Ok(out.len())
}

pub fn run(ctx: &Ctx, args: &ManArgs) -> anyhow::Result<Outcome> {
    match &args.out_dir {
        Some(dir) => {
            let n = write_all(dir)?;
            ctx.printer
                .info(format!("wrote {n} man pages to {}", dir.display()));
        }
        None => {
            let page = render(&super::command())?;
            ctx.printer.out(&String::from_utf8(page)?)?;
        }
    }
    Ok(Outcome::Done)
}
