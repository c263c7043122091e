//! Command-line conventions shared by hlo-opt and hlo-run.

use std::ffi::OsString;

/// `argv` with single-dash long options (`-split-input-file`,
/// `-passes=cse`: the spelling mlir-opt and LLVM tools accept, and that
/// MLIR RUN lines use) turned into clap's double-dash form. Only names of
/// the command's long options (and their aliases) are rewritten, so short
/// options, negative numbers and `-` (standard input) stay as they are;
/// nothing after `--` is touched.
pub fn double_dash_long_options(command: &clap::Command, argv: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let longs: Vec<String> = command
        .get_arguments()
        .flat_map(|a| a.get_long().into_iter().chain(a.get_all_aliases().unwrap_or_default()))
        .map(str::to_string)
        .chain(["help", "version"].map(str::to_string))
        .collect();
    let mut out = Vec::new();
    let mut rest = false;
    for (i, arg) in argv.into_iter().enumerate() {
        let text = arg.to_str().map(str::to_string);
        match text {
            Some(t) if i > 0 && !rest && t == "--" => {
                rest = true;
                out.push(arg);
            }
            Some(t) if i > 0 && !rest && t.len() > 2 && t.starts_with('-') && !t.starts_with("--") => {
                let name = t[1..].split('=').next().unwrap_or("");
                if longs.iter().any(|l| l == name) {
                    out.push(OsString::from(format!("-{t}")));
                } else {
                    out.push(arg);
                }
            }
            _ => out.push(arg),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Arg, ArgAction, Command};

    #[test]
    fn single_dash_long_options_become_double_dash() {
        let cmd = Command::new("t")
            .arg(Arg::new("split").long("split-input-file").action(ArgAction::SetTrue))
            .arg(Arg::new("passes").long("passes").alias("pass"))
            .arg(Arg::new("out").short('o'));
        let argv = ["t", "-split-input-file", "-passes=cse", "-pass", "x", "-o", "-", "-5", "--", "-passes"];
        let got = double_dash_long_options(&cmd, argv.iter().map(OsString::from));
        let want = ["t", "--split-input-file", "--passes=cse", "--pass", "x", "-o", "-", "-5", "--", "-passes"];
        assert_eq!(got, want.iter().map(OsString::from).collect::<Vec<_>>());
    }
}
