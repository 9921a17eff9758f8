use std::process::Command as Process;
use std::time::Duration;

use clap::{Args, Subcommand};

use openclaw_sessions::custody::{clear_stale, probe, Custody, OwnerState};

use crate::cli::exit::Outcome;
use crate::cli::signals;
use crate::cli::Ctx;

/// Environment variable through which `custody run` hands its custody to children.
pub const CUSTODY_ENV: &str = "OPENCLAW_SESSIONS_CUSTODY";

#[derive(Debug, Subcommand)]
pub enum CustodyCommand {
    /// Who owns the state dir, which locks exist, and what a mutation would do (with a live
    /// Gateway: whether this tool reaches it, and with which scopes).
    Status(StatusArgs),
    /// Hold offline custody while CMD runs; exit with its code.
    Run(RunArgs),
    /// Remove stale lock files (dead owners); never a live one.
    ClearStale(ClearStaleArgs),
}

impl CustodyCommand {
    pub fn name(&self) -> &'static str {
        match self {
            CustodyCommand::Status(_) => "custody status",
            CustodyCommand::Run(_) => "custody run",
            CustodyCommand::ClearStale(_) => "custody clear-stale",
        }
    }
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Keep retrying up to DURATION (10m, 90s; a bare number is seconds) while a live owner
    /// holds the state dir.
    #[arg(long, value_name = "DURATION", value_parser = crate::cli::durations::parse_wait)]
    wait: Option<u64>,
    /// The command and its arguments.
    #[arg(last = true, required = true, value_name = "CMD")]
    command: Vec<String>,
}

#[derive(Debug, Args)]
pub struct StatusArgs {
    #[command(flatten)]
    gateway: crate::cli::online::GatewayArgs,
}

#[derive(Debug, Args)]
pub struct ClearStaleArgs {
    /// Name the stale locks and remove nothing (read without taking any lock).
    #[arg(short = 'n', long)]
    dry_run: bool,
}

/// Take custody for a mutating command (or inherit the one a parent `custody run` holds).
pub fn take(
    ctx: &Ctx,
    layout: &openclaw_sessions::paths::StateLayout,
    wait: Option<u64>,
) -> anyhow::Result<Custody> {
    run_as_state_dir_owner(ctx, layout)?;
    let layout = ctx.layout()?;
    signals::install();
    let options = openclaw_sessions::custody::AcquireOptions {
        wait: wait.map(Duration::from_secs),
        interruption: signals::interruption(),
        inherit: std::env::var(CUSTODY_ENV).ok(),
    };
    let custody = Custody::acquire(&layout, &options)?;
    for r in &custody.report.reclaimed {
        ctx.printer.warn(format!("reclaimed a stale lock: {r}"));
    }
    Ok(custody)
}

pub fn run(ctx: &Ctx, cmd: &CustodyCommand) -> anyhow::Result<Outcome> {
    let layout = ctx.layout()?;
    match cmd {
        CustodyCommand::Status(args) => {
            layout.require_exists()?;
            let p = probe(&layout);
            let gateway = crate::cli::online::live_gateway(&p)
                .then(|| crate::cli::online::reach(&layout, &p, &args.gateway));
            let would = match (p.owner.state, &gateway) {
                (OwnerState::None, _) => "take custody".to_string(),
                (OwnerState::Stale, _) => "reclaim the stale locks, then take custody".to_string(),
                (OwnerState::Live, Some(g)) if g.reachable => format!(
                    "{} through the live Gateway's RPC; any other refuse with OWNER_UNAVAILABLE (exit 75)",
                    crate::cli::online::ONLINE_COMMANDS.join(", ")
                ),
                (OwnerState::Live, _) => "refuse with OWNER_UNAVAILABLE (exit 75)".to_string(),
                (OwnerState::Unknown, _) => {
                    "refuse with GATEWAY_STATE_OWNER_REQUIRED (exit 75)".to_string()
                }
            };
            if ctx.printer.json {
                let mut v = serde_json::to_value(&p)?;
                v["mutation"] = serde_json::Value::from(would);
                if let Some(g) = &gateway {
                    v["gateway"] = serde_json::to_value(g)?;
                }
                ctx.printer.json_data(&v)?;
                return Ok(Outcome::Done);
            }
            let o = &p.owner;
            let mut out = format!(
                "Owner: {}",
                serde_json::to_value(o.state)?.as_str().unwrap_or_default()
            );
            if let Some(r) = &o.role {
                out.push_str(&format!(", role {r}"));
            }
            if let Some(pid) = o.pid {
                out.push_str(&format!(", pid {pid}"));
            }
            if let Some(uid) = o.uid {
                out.push_str(&format!(", uid {uid}"));
            }
            if let Some(s) = &o.since {
                out.push_str(&format!(", since {s}"));
            }
            if let Some(g) = &gateway {
                out.push_str(&format!("\nGateway: {}", g.describe()));
            }
            out.push_str(&format!("\nA mutation would: {would}\n"));
            ctx.printer.out(&out)?;
            let mut t = ctx
                .printer
                .table(&["LOCK", "PATH", "FILE", "COORDINATOR", "STATE", "WHY"]);
            for l in &p.locks {
                t.add_row(vec![
                    l.kind.to_string(),
                    l.path.display().to_string(),
                    if l.exists {
                        "present".into()
                    } else {
                        "-".into()
                    },
                    crate::cli::printer::word(&serde_json::to_value(l.coordinator)?["state"]),
                    crate::cli::printer::word(&l.state),
                    l.reason.clone(),
                ]);
            }
            ctx.printer.print_table(&t)?;
            Ok(Outcome::Done)
        }
        CustodyCommand::ClearStale(args) => {
            let (locks, key, verb) = if args.dry_run {
                layout.require_exists()?;
                let stale = probe(&layout)
                    .locks
                    .into_iter()
                    .filter(|l| l.exists && l.state == OwnerState::Stale)
                    .map(|l| format!("{}: {}", l.path.display(), l.reason))
                    .collect();
                (stale, "stale", "would remove")
            } else {
                (clear_stale(&layout)?, "removed", "removed")
            };
            if ctx.printer.json {
                let mut doc = serde_json::json!({ "applied": !args.dry_run });
                doc[key] = serde_json::json!(locks);
                ctx.printer.json_data(&doc)?;
            } else if locks.is_empty() {
                ctx.printer.info("no stale locks");
            } else {
                for l in &locks {
                    ctx.printer.out(&format!("{verb} {l}\n"))?;
                }
            }
            Ok(Outcome::Done)
        }
        CustodyCommand::Run(args) => {
            let custody = take(ctx, &layout, args.wait)?;
            ctx.printer
                .debug(format!("custody taken (owner {})", custody.owner_id));
            signals::wait_for_child();
            let mut child = Process::new(&args.command[0])
                .args(&args.command[1..])
                .env(CUSTODY_ENV, &custody.owner_id)
                .spawn()
                .map_err(|e| cannot_run(&args.command[0], e))?;
            let mut forwarded = false;
            let status = loop {
                if let Some(status) = child.try_wait()? {
                    break status;
                }
                if signals::interruption().requested() && !forwarded {
                    let _ = rustix::process::kill_process(
                        rustix::process::Pid::from_child(&child),
                        rustix::process::Signal::TERM,
                    );
                    forwarded = true;
                }
                std::thread::sleep(Duration::from_millis(20));
            };
            custody.release()?;
            use std::os::unix::process::ExitStatusExt;
            let code = status
                .code()
                .unwrap_or_else(|| 128 + status.signal().unwrap_or(0));
            Ok(Outcome::Child(code))
        }
    }
}

/// Why the command given to `custody run` could not start, with the status `env` and `timeout`
/// exit with: 127 when it is not there, 126 when it is there but cannot be executed (a file
/// without the execute bit, a directory, a format the kernel does not run).
fn cannot_run(program: &str, e: std::io::Error) -> crate::cli::exit::CliError {
    if e.kind() == std::io::ErrorKind::NotFound {
        crate::cli::exit::CliError::CommandNotRun {
            message: format!("cannot run {program:?}: no such command"),
            hint: "give the command's path, or a name found on PATH".to_string(),
            found: false,
        }
    } else {
        crate::cli::exit::CliError::CommandNotRun {
            message: format!("cannot run {program:?}: {e}"),
            hint: "the command must be an executable file".to_string(),
            found: true,
        }
    }
}

/// A mutation runs as the user who owns the state dir, so that every file it writes is that
/// user's and its locks are where that user's OpenClaw looks (`tmp/openclaw-<uid>/`): root
/// becomes that user for the rest of the process; any other user is refused.
pub fn run_as_state_dir_owner(
    ctx: &Ctx,
    layout: &openclaw_sessions::paths::StateLayout,
) -> anyhow::Result<()> {
    use openclaw_sessions::paths::DirOwner;
    // The owner is read from the opened directory, and the path must still name that
    // directory once this process acts as its owner (docs/openclaw/HOSTILE.md §13).
    let Ok(dir) = DirOwner::of(&layout.state_dir) else {
        return Ok(()); // a missing state dir is reported by the command itself
    };
    let (owner, group) = (dir.uid, dir.gid);
    let me = rustix::process::geteuid().as_raw();
    let swapped = || -> anyhow::Error {
        openclaw_sessions::Error::unsafe_path(format!(
            "the state dir {} was replaced by another directory while this started; nothing was changed",
            layout.state_dir.display()
        ))
        .into()
    };
    if me == owner {
        // Root acting as root: only where no other user can swap the state dir for theirs.
        if me == 0 {
            if let Some((parent, uid)) =
                openclaw_sessions::paths::changeable_by_another_user(&layout.state_dir)
            {
                return Err(openclaw_sessions::Error::UnsafePath {
                    message: format!(
                        "the state dir {} is root's, but uid {uid} can replace it ({} is theirs or open to them): root does not write there as root; nothing was changed",
                        layout.state_dir.display(),
                        parent.display()
                    ),
                    hint: Some(
                        "keep a root-owned state dir under directories only root can change".into(),
                    ),
                }
                .into());
            }
        }
        if !dir.still_names(&layout.state_dir) {
            return Err(swapped());
        }
        return Ok(());
    }
    if me != 0 {
        return Err(openclaw_sessions::Error::Conflict {
            message: format!(
                "the state dir {} belongs to uid {owner}, and this runs as uid {me}: what it wrote would belong to the wrong user; nothing was changed",
                layout.state_dir.display()
            ),
            hint: Some(format!(
                "run it as uid {owner} (for example `runuser -u \"$(id -nu {owner})\" -- openclaw-sessions ...`), or as root, which runs it as that user"
            )),
        }
        .into());
    }
    if let Err(e) = openclaw_sessions::sys::become_user(owner, group) {
        return Err(anyhow::Error::new(e).context(format!(
            "switching to uid {owner}, the owner of the state dir"
        )));
    }
    if !dir.still_names(&layout.state_dir) {
        return Err(swapped());
    }
    ctx.printer.debug(format!(
        "running as uid {owner} (gid {group}), the owner of the state dir"
    ));
    // Root's HOME is root's: the snapshot repositories become the owner's.
    ctx.act_as_owner(owner)?;
    Ok(())
}
