// No `unsafe` in the binary: system calls go through rustix, signal-hook or the library's
// `sys` module.
#![deny(unsafe_code)]

mod cli;

fn main() {
    std::process::exit(cli::main());
}
