//! Finding OpenClaw's state dir, config, agents and their stores
//! (tests/reference/openclaw/FORMAT.md §a).

mod agent_id;
mod config;
mod db_owner;
mod layout;
mod selector;
pub mod sqlite_file;
mod state_dir;

pub use agent_id::AgentId;
pub use config::{Config, MaintenanceConfig};
pub use db_owner::read_owner;
pub use layout::{home_of_uid, AgentPaths, DiscoverOptions, StateLayout};
pub use selector::{sqlite_target_for_selector, SelectorTarget};
pub use state_dir::{
    changeable_by_another_user, resolve_home, resolve_state_dir, DirOwner, Environment,
    StateDirChoice,
};
