//! File creation the way this tool promises it: 0600 files, 0700 directories, never
//! overwrite, publish complete files only.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result, ResultExt};

/// Create a new private file; an existing file is `TARGET_EXISTS`.
pub fn create_new_private(path: &Path) -> Result<File> {
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                target_exists(path)
            } else {
                Error::io(path, e)
            }
        })
}

/// What a file that is not a regular file is, in words.
pub fn kind_of(t: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_symlink() {
        "a symbolic link"
    } else {
        "not a regular file"
    }
}

/// A file of a store, a snapshot repository, a quarantine or an ACPX workspace opened for
/// reading: the last component is not followed if it is a symbolic link (`O_NOFOLLOW`), the
/// open never waits for a writer (`O_NONBLOCK`: a FIFO would block a plain open until one
/// comes), and anything but a regular file is refused as `UNSAFE_PATH`, naming the path.
pub fn open_regular(path: &Path) -> Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => Error::unsafe_path(format!(
                "{} is a symbolic link; it is not followed",
                path.display()
            )),
            _ => Error::io(path, e),
        })?;
    let kind = file.metadata().at(path)?.file_type();
    if !kind.is_file() {
        return Err(not_regular(path, kind));
    }
    Ok(file)
}

/// The refusal of a path that is not a regular file.
pub fn not_regular(path: &Path, kind: std::fs::FileType) -> Error {
    Error::unsafe_path(format!(
        "{} is {}, not a regular file; it is not read",
        path.display(),
        kind_of(kind)
    ))
}

/// [`open_regular`], then the whole text.
pub fn read_regular_to_string(path: &Path) -> Result<String> {
    use std::io::Read;
    let mut text = String::new();
    open_regular(path)?.read_to_string(&mut text).at(path)?;
    Ok(text)
}

/// [`open_regular`], then all the bytes.
pub fn read_regular(path: &Path) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    open_regular(path)?.read_to_end(&mut bytes).at(path)?;
    Ok(bytes)
}

/// Flush a directory's entries (after a create, link, rename or unlink in it).
/// The entries of `dir`, or none when it does not exist (any other failure is an error
/// naming it).
pub fn read_dir_if_exists(dir: &Path) -> Result<Option<std::fs::ReadDir>> {
    match std::fs::read_dir(dir) {
        Ok(rd) => Ok(Some(rd)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(dir, e)),
    }
}

pub fn fsync_dir(dir: &Path) -> Result<()> {
    File::open(dir).and_then(|d| d.sync_all()).at(dir)
}

/// `mkdir -p` with 0700 for every directory it creates.
pub fn create_private_dir_all(dir: &Path) -> Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .at(dir)
}

pub fn target_exists(path: &Path) -> Error {
    Error::Conflict {
        message: format!(
            "{} already exists; this tool never overwrites a file",
            path.display()
        ),
        hint: Some("choose another path or remove the file first".into()),
    }
}

/// Give the complete file `from` a second name `to` (its publication), never replacing a file
/// there: an existing `to` is `TARGET_EXISTS`.
pub fn hard_link_new(from: &Path, to: &Path) -> Result<()> {
    std::fs::hard_link(from, to).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            target_exists(to)
        } else {
            Error::io(to, e)
        }
    })
}

/// Write a file completely under a temporary name beside `target`, fsync it, then
/// publish it by hard link (which fails rather than replace an existing file).
pub fn write_new_file(
    target: &Path,
    fill: &mut dyn FnMut(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    if target.symlink_metadata().is_ok() {
        return Err(target_exists(target));
    }
    let dir = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp: PathBuf = dir.join(format!(".{name}.{}.tmp", uuid::Uuid::new_v4().simple()));
    let result = (|| {
        let file = create_new_private(&tmp)?;
        let mut w = std::io::BufWriter::new(file);
        fill(&mut w)?;
        let file = w
            .into_inner()
            .map_err(|e| Error::io(&tmp, e.into_error()))?;
        file.sync_all().at(&tmp)?;
        hard_link_new(&tmp, target)?;
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    let _ = std::fs::remove_file(&tmp);
    result
}

/// Rename without replacing anything (`renameat2(RENAME_NOREPLACE)`): `AlreadyExists` when
/// `to` exists. File systems without the flag answer `EINVAL`.
pub fn rename_noreplace(from: &Path, to: &Path) -> std::io::Result<()> {
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    Ok(renameat_with(CWD, from, CWD, to, RenameFlags::NOREPLACE)?)
}

/// `path` could not be read for want of permission: the error names the path, its owner and
/// mode, and the uid this runs as (a store another user owns is the usual cause).
pub fn permission_denied(path: &Path) -> Error {
    use std::os::unix::fs::MetadataExt;
    let me = rustix::process::geteuid().as_raw();
    let owner = std::fs::symlink_metadata(path)
        .map(|m| {
            format!(
                "owned by uid {} with mode {:04o}",
                m.uid(),
                m.mode() & 0o7777
            )
        })
        .unwrap_or_else(|_| "its directory cannot be searched".into());
    Error::io(
        path,
        std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            format!("permission denied ({owner}; this runs as uid {me})"),
        ),
    )
}

/// Whether `path` exists, where permission to look is an error, not an absence: a path
/// whose directory cannot be searched names that directory.
pub fn exists_readably(path: &Path) -> Result<bool> {
    match std::fs::symlink_metadata(path) {
        Ok(_) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => Err(permission_denied(
            path.parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(path),
        )),
        Err(e) if e.raw_os_error() == Some(libc::ENOTDIR) => Ok(false),
        Err(e) => Err(Error::io(path, e)),
    }
}

/// A directory that exists must be listable, a file that exists must open for reading:
/// permission denied is an error naming the path. Nothing there is no error.
pub fn check_readable(path: &Path) -> Result<()> {
    if !exists_readably(path)? {
        return Ok(());
    }
    let denied = if path.is_dir() {
        std::fs::read_dir(path).err()
    } else if path.is_file() {
        File::open(path).err()
    } else {
        None
    };
    match denied {
        Some(e) if e.kind() == std::io::ErrorKind::PermissionDenied => Err(permission_denied(path)),
        _ => Ok(()),
    }
}
