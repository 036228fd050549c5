//! Where the results go, checked before anything runs: --csv, --junit and --plot.

use super::args::RunArgs;
use super::{usage, UsageError};
use crate::report::merge;
use std::path::{Path, PathBuf};

/// Whether `a` and `b` name one file: the same inode when both exist, else the same absolute
/// path.
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => std::path::absolute(a).ok() == std::path::absolute(b).ok(),
    }
}

/// Checks where the results will go before anything runs: --csv must be a regular file that is
/// not one of the run's inputs and not another output, and an existing file clacc did not
/// write is replaced only with --force; --junit's folder and --plot must be writable.
pub(crate) fn check_destinations(args: &RunArgs) -> Result<(), UsageError> {
    let csv = &args.csv;
    merge::refuse_irregular(csv, "--csv")?;
    let mut others: Vec<(&str, PathBuf)> = Vec::new();
    if let Some(path) = &args.input_file {
        others.push(("--input-file", path.clone()));
    }
    if let Some(path) = &args.junit {
        others.push(("--junit", path.clone()));
    }
    for spec in &args.kernel {
        if let Some((_, path)) = spec.split_once('=') {
            others.push(("--kernel", PathBuf::from(path)));
        }
    }
    for (flag, path) in &others {
        if same_file(csv, path) {
            return usage(format!(
                "--csv {} is also the {flag} file; give the CSV another path",
                csv.display()
            ));
        }
    }
    if let Some(junit) = &args.junit {
        for (flag, path) in others.iter().filter(|(flag, _)| *flag != "--junit") {
            if same_file(junit, path) {
                return usage(format!(
                    "--junit {} is also the {flag} file; give the JUnit report another path",
                    junit.display()
                ));
            }
        }
    }
    if !csv.exists() {
        check_writable_file(csv, "--csv")?;
    }
    let has_content = std::fs::metadata(csv).is_ok_and(|m| m.len() > 0);
    if has_content && !args.resume && !args.force && !merge::is_clacc_csv(csv) {
        return usage(format!(
            "--csv {} exists and is not a clacc CSV; give another --csv, or --force to replace it",
            csv.display()
        ));
    }
    if let Some(path) = &args.junit {
        check_writable_file(path, "--junit")?;
    }
    if let Some(dir) = &args.plot {
        std::fs::create_dir_all(dir).map_err(|e| {
            UsageError(format!(
                "--plot {}: cannot create the folder: {e}",
                dir.display()
            ))
        })?;
        check_writable_dir(dir, "--plot")?;
    }
    Ok(())
}

/// A file clacc will write later: a regular file or nothing yet, in a writable folder.
pub(crate) fn check_writable_file(path: &Path, flag: &str) -> Result<(), UsageError> {
    match std::fs::metadata(path) {
        Ok(metadata) if !metadata.is_file() => usage(format!(
            "{flag} {} exists and is not a regular file; give a file path",
            path.display()
        )),
        Ok(_) => std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map(|_| ())
            .map_err(|e| UsageError(format!("{flag} {}: cannot write it: {e}", path.display()))),
        Err(_) => {
            let parent = match path.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent,
                _ => Path::new("."),
            };
            if !parent.is_dir() {
                return usage(format!(
                    "{flag} {}: the folder {} does not exist",
                    path.display(),
                    parent.display()
                ));
            }
            check_writable_dir(parent, flag)
        }
    }
}

/// Writes and removes a probe file: permissions, read-only mounts and full quotas all show.
fn check_writable_dir(dir: &Path, flag: &str) -> Result<(), UsageError> {
    let probe = dir.join(format!(".clacc-write-check-{}", std::process::id()));
    let written = std::fs::write(&probe, b"");
    let _ = std::fs::remove_file(&probe);
    written.map_err(|e| UsageError(format!("{flag}: cannot write into {}: {e}", dir.display())))
}
