//! `openclaw-sessions`: the library core of the offline operator and doctor tool for
//! OpenClaw session stores. It never prints, prompts or exits: it returns typed errors and
//! reports progress through [`progress::Progress`]. The binary (`src/cli`) does the talking.

// `unsafe` lives in `sys` only: everything else uses the safe wrappers of rustix and
// signal-hook.
#![deny(unsafe_code)]

pub mod backup;
pub mod custody;
pub mod digest;
pub mod doctor;
pub mod du;
pub mod error;
pub mod formats;
pub mod fsutil;
#[doc(hidden)]
pub mod fuzzing;
pub mod gateway;
pub mod history;
pub mod interruption;
pub mod json_value;
pub mod legacy;
pub mod marker;
pub mod migrate;
pub mod mutate;
pub mod oplog;
pub mod ops;
pub mod parallel;
pub mod paths;
pub mod progress;
pub mod remedy;
pub mod secrets;
pub mod status;
pub mod store;
pub mod streamed;
#[allow(unsafe_code)]
pub mod sys;
pub mod test_hooks;
pub mod transcript;
pub mod units;
pub mod writer;

pub use error::{Error, ErrorKind, Result};
pub use remedy::Remedy;
