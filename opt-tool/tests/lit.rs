//! Lit-style FileCheck test runner for the workspace's `test/` directory.
//!
//! Every `*.mlir` / `*.hlo` file under `test/` (recursively, skipping `Output/`, `oracle/`, `models/` and `sharded/`
//! directories) that has at least one `RUN:` line becomes one libtest-mimic
//! trial named by its path relative to `test/`, so the usual filters work:
//!
//! ```text
//! cargo test -p rxla-opt --test lit               # everything
//! cargo test -p rxla-opt --test lit -- ops_       # names containing "ops_"
//! cargo test -p rxla-opt --test lit -- --list     # list the trials
//! ```
//!
//! The directives follow LLVM lit (`RUN:`, `REQUIRES:`, `UNSUPPORTED:`,
//! `XFAIL:`, `%s %S %p %t %%` substitutions, trailing `\` continuation), so
//! the same suite also runs under LLVM's own lit via `test/lit.cfg.py`. Keep
//! the tool table ([`harness::tools`]) and the feature list
//! ([`harness::available_features`]) in sync with `test/lit.cfg.py`.
//!
//! Environment knobs:
//! * `LLVM_TOOLS_DIR`: where `FileCheck`, `not`, `count` live
//!   (default `/usr/lib/llvm-22/bin`).
//! * `RXLA_HAS_CUDA=1`: enables the `cuda` feature.
//! * `RXLA_LIT_TIMEOUT`: seconds one RUN line may take (default 300).
//!
//! The pure logic (directive parsing, substitutions, feature expressions) lives
//! in the `harness` module and is covered by the `harness::*` trials at the
//! bottom of this file (a `harness = false` target cannot use `#[test]`).

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use std::path::{Path, PathBuf};

fn main() {
    let args = Arguments::from_args();
    let mut trials = harness_self_tests();
    trials.extend(discover_lit_tests());
    libtest_mimic::run(&args, trials).exit();
}

/// The workspace's `test/` directory.
fn test_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../test");
    root.canonicalize().unwrap_or(root)
}

/// Where `%t` paths live: `target/lit-tmp/<relative test path>.tmp`.
fn tmp_root() -> PathBuf {
    // Cargo sets CARGO_TARGET_TMPDIR (= <target>/tmp) for integration tests.
    match option_env!("CARGO_TARGET_TMPDIR").map(Path::new).and_then(Path::parent) {
        Some(target) => target.join("lit-tmp"),
        None => std::env::temp_dir().join("rxla-lit-tmp"),
    }
}

/// One trial per test file found under `test/`.
fn discover_lit_tests() -> Vec<Trial> {
    let root = test_root();
    let mut files = Vec::new();
    if let Err(e) = harness::collect_test_files(&root, &mut files) {
        return vec![Trial::test("lit::discovery", move || Err(format!("cannot scan {}: {e}", root.display()).into()))];
    }
    files.sort();

    let tools = harness::tools();
    let features = harness::available_features();
    let tmp_root = tmp_root();
    let mut trials = Vec::new();
    for file in files {
        let rel = file.strip_prefix(&root).unwrap_or(&file);
        let name = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
        let text = match std::fs::read_to_string(&file) {
            Ok(t) => t,
            Err(e) => {
                let msg = format!("cannot read {}: {e}", file.display());
                trials.push(Trial::test(name, move || Err(msg.into())));
                continue;
            }
        };
        let directives = match harness::parse_directives(&text) {
            Ok(d) => d,
            Err(e) => {
                let msg = format!("{}: {e}", file.display());
                trials.push(Trial::test(name, move || Err(msg.into())));
                continue;
            }
        };
        if directives.run.is_empty() {
            continue; // not a test (e.g. an input file for another test)
        }
        let ctx = harness::SubstContext { source: file.clone(), tmp_base: tmp_root.join(&name), tools: tools.clone() };
        let features = features.clone();
        trials.push(Trial::ignorable_test(name, move || harness::run_test(&directives, &ctx, &features)));
    }
    trials
}

mod harness {
    use super::{Completion, Failed};
    use std::collections::BTreeSet;
    use std::io::Read;
    use std::path::{Path, PathBuf};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    // ---------------------------------------------------------------------
    // Configuration: the two tables to extend.
    // ---------------------------------------------------------------------

    /// A tool name that is replaced by an absolute path when it starts a
    /// command in a RUN line.
    #[derive(Clone, Debug)]
    pub struct Tool {
        pub name: &'static str,
        pub path: PathBuf,
    }

    /// Directory holding FileCheck, not and count.
    pub fn llvm_tools_dir() -> PathBuf {
        std::env::var_os("LLVM_TOOLS_DIR")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("/usr/lib/llvm-22/bin"))
    }

    /// THE tool table. To add a binary of this package (e.g. `hlo-run`), add
    /// `tool("hlo-run", env!("CARGO_BIN_EXE_hlo-run"))`; for a binary of
    /// another workspace package use `workspace_bin("name")`. Also add it to
    /// `tools` in test/lit.cfg.py and the table in test/README.md.
    pub fn tools() -> Vec<Tool> {
        let llvm = llvm_tools_dir();
        let tool = |name: &'static str, path: &str| Tool { name, path: PathBuf::from(path) };
        let mut tools = vec![
            // Binaries of this package:
            tool("hlo-opt", env!("CARGO_BIN_EXE_hlo-opt")),
            tool("hlo-run", env!("CARGO_BIN_EXE_hlo-run")),
        ];
        // LLVM testing tools:
        for name in ["FileCheck", "not", "count"] {
            tools.push(Tool { name, path: llvm.join(name) });
        }
        // Longest names first so that e.g. `hlo-opt-foo` would win over `hlo-opt`.
        tools.sort_by_key(|t| std::cmp::Reverse(t.name.len()));
        tools
    }

    /// Path of a binary built by another package of this workspace, in the
    /// same profile directory as this test executable (target/<profile>/).
    #[allow(dead_code)]
    pub fn workspace_bin(name: &str) -> PathBuf {
        let exe = std::env::current_exe().expect("current_exe");
        // target/<profile>/deps/lit-<hash> -> target/<profile>/<name>
        exe.parent().and_then(Path::parent).expect("target dir").join(name)
    }

    /// THE feature list (same names as `config.available_features` in
    /// test/lit.cfg.py).
    pub fn available_features() -> BTreeSet<String> {
        let mut f = BTreeSet::new();
        f.insert(std::env::consts::ARCH.to_string()); // x86_64 / aarch64
        f.insert(std::env::consts::OS.to_string()); // linux
        f.insert("filecheck".to_string());
        if std::env::var("RXLA_HAS_CUDA").as_deref() == Ok("1") {
            f.insert("cuda".to_string());
        }
        f
    }

    // ---------------------------------------------------------------------
    // Discovery
    // ---------------------------------------------------------------------

    pub const SUFFIXES: &[&str] = &["mlir", "hlo"];

    pub fn collect_test_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            let path = entry.path();
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') {
                continue;
            }
            if entry.file_type()?.is_dir() {
                // `oracle/`, `models/`, `linalg/` and `sharded/` are corpora,
                // not lit tests (as in test/lit.cfg.py's excludes).
                if !["Output", "oracle", "models", "linalg", "sharded"].contains(&name.as_ref()) {
                    collect_test_files(&path, out)?;
                }
            } else if path.extension().is_some_and(|e| SUFFIXES.iter().any(|s| e == *s)) {
                out.push(path);
            }
        }
        Ok(())
    }

    // ---------------------------------------------------------------------
    // Directive parsing
    // ---------------------------------------------------------------------

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct Directives {
        /// RUN commands, continuation lines already joined.
        pub run: Vec<String>,
        /// For each RUN command, the (1-based) line number where it starts.
        pub run_lines: Vec<usize>,
        /// Boolean feature expressions; all must hold.
        pub requires: Vec<String>,
        /// Boolean feature expressions; any holding makes the test unsupported.
        pub unsupported: Vec<String>,
        /// Boolean feature expressions (or `*`); any holding means XFAIL.
        pub xfail: Vec<String>,
    }

    /// Parses lit directives. A directive is a line whose first non-blank
    /// characters are a comment leader (`//` or `#`, repeated, e.g. `///`)
    /// followed by `KEYWORD:`; so `// CHECK: RUN:` is not a RUN line.
    pub fn parse_directives(text: &str) -> Result<Directives, String> {
        let mut d = Directives::default();
        let mut continuing = false;
        for (lineno, line) in text.lines().enumerate() {
            let Some((keyword, body)) = directive(line) else {
                // LLVM lit finds keywords anywhere in a line; refuse lines it
                // would read differently from us.
                if let Some(kw) = KEYWORDS.iter().find(|k| line.contains(&format!("{k}:"))) {
                    return Err(format!(
                        "line {}: contains '{kw}:' but not right after a leading `//` or `#`; \
                         LLVM lit would still read it as a {kw}: directive. Rephrase it",
                        lineno + 1
                    ));
                }
                if let Some(kw) = UNSUPPORTED_KEYWORDS.iter().find(|k| line.contains(*k)) {
                    return Err(format!("line {}: lit directive '{kw}' is not supported by this runner", lineno + 1));
                }
                continue;
            };
            let body = body.trim();
            if continuing && keyword != "RUN" {
                return Err(format!("line {}: RUN line continued with '\\' but followed by {keyword}:", lineno + 1));
            }
            match keyword {
                "RUN" => {
                    let (cmd, cont) = match body.strip_suffix('\\') {
                        Some(c) => (c.trim_end(), true),
                        None => (body, false),
                    };
                    if continuing {
                        let last = d.run.last_mut().unwrap();
                        if !last.is_empty() && !cmd.is_empty() {
                            last.push(' ');
                        }
                        last.push_str(cmd);
                    } else {
                        d.run.push(cmd.to_string());
                        d.run_lines.push(lineno + 1);
                    }
                    continuing = cont;
                }
                "REQUIRES" | "UNSUPPORTED" | "XFAIL" => {
                    let list = match keyword {
                        "REQUIRES" => &mut d.requires,
                        "UNSUPPORTED" => &mut d.unsupported,
                        _ => &mut d.xfail,
                    };
                    for item in body.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                        if item != "*" {
                            parse_expr(item).map_err(|e| format!("line {}: {keyword}: {e}", lineno + 1))?;
                        }
                        list.push(item.to_string());
                    }
                }
                _ => unreachable!(),
            }
        }
        if continuing {
            return Err("the last RUN line ends with '\\' (unterminated continuation)".into());
        }
        Ok(d)
    }

    const KEYWORDS: [&str; 4] = ["RUN", "REQUIRES", "UNSUPPORTED", "XFAIL"];
    const UNSUPPORTED_KEYWORDS: [&str; 3] = ["DEFINE:", "REDEFINE:", "ALLOW_RETRIES:"];

    /// `// RUN: foo` -> Some(("RUN", " foo")).
    fn directive(line: &str) -> Option<(&'static str, &str)> {
        let s = line.trim_start();
        let rest = if s.starts_with("//") {
            s.trim_start_matches('/')
        } else if s.starts_with('#') {
            s.trim_start_matches('#')
        } else {
            return None;
        };
        let rest = rest.trim_start();
        for kw in KEYWORDS {
            if let Some(body) = rest.strip_prefix(kw).and_then(|r| r.strip_prefix(':')) {
                return Some((kw, body));
            }
        }
        None
    }

    // ---------------------------------------------------------------------
    // Feature expressions: `a`, `!a`, `a && b`, `a || (b && !c)`, `true`.
    // ---------------------------------------------------------------------

    #[derive(Debug, PartialEq)]
    pub enum Expr {
        Lit(bool),
        Feature(String),
        Not(Box<Expr>),
        And(Box<Expr>, Box<Expr>),
        Or(Box<Expr>, Box<Expr>),
    }

    impl Expr {
        pub fn eval(&self, features: &BTreeSet<String>) -> bool {
            match self {
                Expr::Lit(b) => *b,
                Expr::Feature(f) => features.contains(f),
                Expr::Not(e) => !e.eval(features),
                Expr::And(a, b) => a.eval(features) && b.eval(features),
                Expr::Or(a, b) => a.eval(features) || b.eval(features),
            }
        }
    }

    pub fn parse_expr(s: &str) -> Result<Expr, String> {
        let mut toks = Vec::new();
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if c.is_ascii_whitespace() {
                i += 1;
            } else if s[i..].starts_with("&&") || s[i..].starts_with("||") {
                toks.push(s[i..i + 2].to_string());
                i += 2;
            } else if c == b'!' || c == b'(' || c == b')' {
                toks.push((c as char).to_string());
                i += 1;
            } else if c.is_ascii_alphanumeric() || b"-+=._".contains(&c) {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b"-+=._".contains(&b[i])) {
                    i += 1;
                }
                toks.push(s[start..i].to_string());
            } else {
                return Err(format!("unexpected character {:?} in {s:?}", c as char));
            }
        }
        let mut pos = 0;
        let e = parse_or(&toks, &mut pos)?;
        if pos != toks.len() {
            return Err(format!("unexpected {:?} in {s:?}", toks[pos]));
        }
        Ok(e)
    }

    fn parse_or(t: &[String], p: &mut usize) -> Result<Expr, String> {
        let mut e = parse_and(t, p)?;
        while t.get(*p).is_some_and(|x| x == "||") {
            *p += 1;
            e = Expr::Or(Box::new(e), Box::new(parse_and(t, p)?));
        }
        Ok(e)
    }

    fn parse_and(t: &[String], p: &mut usize) -> Result<Expr, String> {
        let mut e = parse_not(t, p)?;
        while t.get(*p).is_some_and(|x| x == "&&") {
            *p += 1;
            e = Expr::And(Box::new(e), Box::new(parse_not(t, p)?));
        }
        Ok(e)
    }

    fn parse_not(t: &[String], p: &mut usize) -> Result<Expr, String> {
        let tok = t.get(*p).ok_or("expression ends too early")?;
        *p += 1;
        match tok.as_str() {
            "!" => Ok(Expr::Not(Box::new(parse_not(t, p)?))),
            "(" => {
                let e = parse_or(t, p)?;
                if t.get(*p).map(String::as_str) != Some(")") {
                    return Err("missing ')'".into());
                }
                *p += 1;
                Ok(e)
            }
            "true" => Ok(Expr::Lit(true)),
            "false" => Ok(Expr::Lit(false)),
            "&&" | "||" | ")" => Err(format!("unexpected {tok:?}")),
            f => Ok(Expr::Feature(f.to_string())),
        }
    }

    fn holds(item: &str, features: &BTreeSet<String>) -> bool {
        item == "*" || parse_expr(item).map(|e| e.eval(features)).unwrap_or(false)
    }

    // ---------------------------------------------------------------------
    // Substitutions
    // ---------------------------------------------------------------------

    pub struct SubstContext {
        /// Absolute path of the test file (`%s`).
        pub source: PathBuf,
        /// lit's "tmpBase": a unique path per test; `%t` is this plus
        /// `.tmp`, `%basename_t` its file name. (`%T` is rejected, as by LLVM
        /// 22's lit: derive directories from `%t` instead.)
        pub tmp_base: PathBuf,
        pub tools: Vec<Tool>,
    }

    impl SubstContext {
        fn source_dir(&self) -> PathBuf {
            self.source.parent().map(Path::to_path_buf).unwrap_or_default()
        }
        fn tmp_name(&self) -> PathBuf {
            let mut t = self.tmp_base.clone().into_os_string();
            t.push(".tmp");
            PathBuf::from(t)
        }
    }

    /// Expands one RUN command: `%`-substitutions everywhere (like lit, also
    /// inside quotes), tool names only where a command starts.
    pub fn expand(cmd: &str, ctx: &SubstContext) -> Result<String, String> {
        let mut out = String::with_capacity(cmd.len() + 64);
        let chars: Vec<char> = cmd.chars().collect();
        let mut i = 0;
        let mut at_cmd_start = true;
        let mut quote: Option<char> = None;
        while i < chars.len() {
            let c = chars[i];
            if quote.is_none() && at_cmd_start {
                if c.is_whitespace() {
                    out.push(c);
                    i += 1;
                    continue;
                }
                at_cmd_start = false;
                if let Some((tool, len)) = tool_at(&chars[i..], &ctx.tools) {
                    out.push_str(&shell_quote(&tool.path.to_string_lossy()));
                    i += len;
                    if tool.name == "not" {
                        // `not [--crash] CMD`: CMD starts a command too.
                        at_cmd_start = true;
                        let rest: String = chars[i..].iter().collect();
                        let trimmed = rest.trim_start();
                        if let Some(after) = trimmed.strip_prefix("--crash") {
                            if after.is_empty() || after.starts_with(char::is_whitespace) {
                                let skip = rest.len() - trimmed.len() + "--crash".len();
                                out.push_str(&rest[..skip]);
                                i += rest[..skip].chars().count();
                            }
                        }
                    }
                    continue;
                }
            }
            match c {
                '%' => {
                    let (text, len) = percent(&chars[i + 1..], ctx)?;
                    out.push_str(&text);
                    i += 1 + len;
                    continue;
                }
                '\\' if quote != Some('\'') => {
                    out.push(c);
                    if let Some(&n) = chars.get(i + 1) {
                        out.push(n);
                        i += 1;
                    }
                }
                '\'' | '"' => {
                    match quote {
                        None => quote = Some(c),
                        Some(q) if q == c => quote = None,
                        _ => {}
                    }
                    out.push(c);
                }
                '|' | ';' | '(' if quote.is_none() => {
                    out.push(c);
                    // `||`, `|&`
                    if c == '|' && matches!(chars.get(i + 1), Some('|') | Some('&')) {
                        out.push(chars[i + 1]);
                        i += 1;
                    }
                    at_cmd_start = true;
                }
                '&' if quote.is_none() => {
                    out.push(c);
                    let redirect = i > 0 && matches!(chars[i - 1], '>' | '<');
                    if chars.get(i + 1) == Some(&'&') {
                        out.push('&');
                        i += 1;
                        at_cmd_start = true;
                    } else if chars.get(i + 1) == Some(&'>') || redirect {
                        // `&>file`, `2>&1`
                    } else {
                        at_cmd_start = true; // `cmd & cmd`
                    }
                }
                _ => out.push(c),
            }
            i += 1;
        }
        Ok(out)
    }

    /// A tool name at the start of `s`, ending at a word boundary.
    fn tool_at<'a>(s: &[char], tools: &'a [Tool]) -> Option<(&'a Tool, usize)> {
        tools.iter().find_map(|t| {
            let n: Vec<char> = t.name.chars().collect();
            let boundary = match s.get(n.len()) {
                None => true,
                Some(c) => c.is_whitespace() || matches!(c, '|' | ';' | '&' | ')' | '<' | '>'),
            };
            (s.starts_with(&n) && boundary).then_some((t, n.len()))
        })
    }

    /// Expands the `%...` sequence whose text (after the `%`) starts `s`.
    /// Returns the replacement and how many chars after `%` were consumed.
    fn percent(s: &[char], ctx: &SubstContext) -> Result<(String, usize), String> {
        let rest: String = s.iter().take(16).collect();
        if rest.starts_with('T') || rest.starts_with("/T") {
            return Err("%T is no longer supported (LLVM 22 lit rejects it too); \
                        create directories with names based on %t"
                .into());
        }
        let path = |p: PathBuf| p.to_string_lossy().into_owned();
        let basename_t = || ctx.tmp_base.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        // Longest keys first.
        let table: [(&str, &dyn Fn() -> String); 11] = [
            ("{pathsep}", &|| ":".to_string()),
            ("basename_t", &basename_t),
            ("/s", &|| path(ctx.source.clone())),
            ("/S", &|| path(ctx.source_dir())),
            ("/p", &|| path(ctx.source_dir())),
            ("/t", &|| path(ctx.tmp_name())),
            ("%", &|| "%".to_string()),
            ("s", &|| path(ctx.source.clone())),
            ("S", &|| path(ctx.source_dir())),
            ("p", &|| path(ctx.source_dir())),
            ("t", &|| path(ctx.tmp_name())),
        ];
        for (key, value) in table {
            if rest.starts_with(key) {
                return Ok((value(), key.chars().count()));
            }
        }
        Ok(("%".to_string(), 0)) // unknown: keep as is (e.g. `%0` in a pattern)
    }

    fn shell_quote(s: &str) -> String {
        if s.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@".contains(c)) {
            s.to_string()
        } else {
            format!("'{}'", s.replace('\'', r"'\''"))
        }
    }

    // ---------------------------------------------------------------------
    // Execution
    // ---------------------------------------------------------------------

    const MAX_OUTPUT: usize = 16 * 1024;

    fn timeout() -> Duration {
        let secs = std::env::var("RXLA_LIT_TIMEOUT").ok().and_then(|v| v.parse().ok()).unwrap_or(300u64);
        Duration::from_secs(secs)
    }

    pub fn run_test(d: &Directives, ctx: &SubstContext, features: &BTreeSet<String>) -> Result<Completion, Failed> {
        let missing: Vec<&str> = d.requires.iter().filter(|r| !holds(r, features)).map(String::as_str).collect();
        if !missing.is_empty() {
            return Ok(Completion::ignored_with(format!("REQUIRES not met: {}", missing.join(", "))));
        }
        if let Some(u) = d.unsupported.iter().find(|u| holds(u, features)) {
            return Ok(Completion::ignored_with(format!("UNSUPPORTED: {u}")));
        }
        let xfail = d.xfail.iter().any(|x| holds(x, features));

        if let Some(parent) = ctx.tmp_base.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        let cwd = ctx.source_dir();
        let path_env = {
            let mut dirs: Vec<PathBuf> =
                ctx.tools.iter().filter_map(|t| t.path.parent().map(Path::to_path_buf)).collect();
            let mut seen = std::collections::HashSet::new();
            dirs.retain(|d| seen.insert(d.clone()));
            if let Some(p) = std::env::var_os("PATH") {
                dirs.extend(std::env::split_paths(&p));
            }
            std::env::join_paths(dirs).unwrap_or_default()
        };

        for (n, raw) in d.run.iter().enumerate() {
            let line = d.run_lines.get(n).copied().unwrap_or(0);
            let cmd = expand(raw, ctx).map_err(|e| format!("RUN: at line {line}: {e}\ncommand: {raw}"))?;
            let res = run_shell(&cmd, &cwd, &path_env)?;
            if !res.success {
                if xfail {
                    return Ok(Completion::Completed); // expected failure
                }
                return Err(format!(
                    "RUN: at line {line} failed ({})\n\
                     command: {cmd}\n\
                     --- stdout ---\n{}\n--- stderr ---\n{}",
                    res.status,
                    truncate(&res.stdout),
                    truncate(&res.stderr),
                )
                .into());
            }
        }
        if xfail {
            return Err(format!(
                "XPASS: test is marked XFAIL ({}) but all {} RUN line(s) passed",
                d.xfail.join(", "),
                d.run.len()
            )
            .into());
        }
        Ok(Completion::Completed)
    }

    struct ShellResult {
        success: bool,
        status: String,
        stdout: String,
        stderr: String,
    }

    fn run_shell(cmd: &str, cwd: &Path, path_env: &std::ffi::OsStr) -> Result<ShellResult, Failed> {
        use std::os::unix::process::CommandExt;
        let mut child = Command::new("bash")
            .args(["-o", "pipefail", "-c", cmd])
            .current_dir(cwd)
            .env("PATH", path_env)
            .env("LLVM_DISABLE_CRASH_REPORT", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot spawn bash: {e}\ncommand: {cmd}"))?;
        let reader = |mut r: Box<dyn Read + Send>| {
            std::thread::spawn(move || {
                let mut buf = Vec::new();
                let _ = r.read_to_end(&mut buf);
                String::from_utf8_lossy(&buf).into_owned()
            })
        };
        let out = reader(Box::new(child.stdout.take().unwrap()));
        let err = reader(Box::new(child.stderr.take().unwrap()));
        let limit = timeout();
        let start = Instant::now();
        let mut timed_out = false;
        let status = loop {
            if let Some(st) = child.try_wait().map_err(|e| e.to_string())? {
                break st;
            }
            if start.elapsed() > limit {
                // Kill the whole process group (bash and its pipeline).
                let _ = Command::new("kill").args(["-KILL", "--", &format!("-{}", child.id())]).status();
                let _ = child.kill();
                timed_out = true;
                break child.wait().map_err(|e| e.to_string())?;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let stdout = out.join().unwrap_or_default();
        let stderr = err.join().unwrap_or_default();
        let status_text = if timed_out {
            format!("timed out after {}s (RXLA_LIT_TIMEOUT)", limit.as_secs())
        } else {
            match status.code() {
                Some(c) => format!("exit code {c}"),
                None => format!("{status}"),
            }
        };
        Ok(ShellResult { success: status.success() && !timed_out, status: status_text, stdout, stderr })
    }

    /// Keeps the head (where FileCheck puts its error) and the tail.
    pub fn truncate(s: &str) -> String {
        if s.len() <= MAX_OUTPUT {
            return s.trim_end().to_string();
        }
        let head_end = floor_char_boundary(s, MAX_OUTPUT * 3 / 4);
        let tail_start = floor_char_boundary(s, s.len() - MAX_OUTPUT / 4);
        format!("{}\n[... {} bytes omitted ...]\n{}", &s[..head_end], tail_start - head_end, s[tail_start..].trim_end())
    }

    fn floor_char_boundary(s: &str, mut i: usize) -> usize {
        while !s.is_char_boundary(i) {
            i -= 1;
        }
        i
    }
}

// -------------------------------------------------------------------------
// Self-tests of the harness logic.
// -------------------------------------------------------------------------

fn harness_self_tests() -> Vec<Trial> {
    use harness::*;

    fn check<T: PartialEq + std::fmt::Debug>(what: &str, got: T, want: T) -> Result<(), Failed> {
        if got == want {
            Ok(())
        } else {
            Err(format!("{what}:\n  got:  {got:?}\n  want: {want:?}").into())
        }
    }

    fn ctx() -> SubstContext {
        SubstContext {
            source: PathBuf::from("/w/test/ops/add.mlir"),
            tmp_base: PathBuf::from("/w/target/lit-tmp/ops/add.mlir"),
            tools: vec![
                Tool { name: "hlo-opt", path: "/bin/HLO-OPT".into() },
                Tool { name: "FileCheck", path: "/llvm/FileCheck".into() },
                Tool { name: "not", path: "/llvm/not".into() },
                Tool { name: "count", path: "/llvm/count".into() },
            ],
        }
    }

    vec![
        Trial::test("harness::parse_directives", || {
            let text = "\
// RUN: hlo-opt %s \\
// RUN:   --split-input-file \\
// RUN: | FileCheck %s
# RUN: echo two
//   REQUIRES: linux, x86_64 || aarch64
// UNSUPPORTED: cuda
// XFAIL: *
// CHECK: hlo.add
";
            let d = parse_directives(text)?;
            check(
                "run",
                d.run,
                vec!["hlo-opt %s --split-input-file | FileCheck %s".to_string(), "echo two".to_string()],
            )?;
            check("run_lines", d.run_lines, vec![1, 4])?;
            check("requires", d.requires, vec!["linux".into(), "x86_64 || aarch64".into()])?;
            check("unsupported", d.unsupported, vec!["cuda".to_string()])?;
            check("xfail", d.xfail, vec!["*".to_string()])?;
            check("no run lines", parse_directives("// CHECK: foo\n")?.run.len(), 0)?;
            check("unterminated continuation", parse_directives("// RUN: foo \\\n").is_err(), true)?;
            check("keyword not at comment start", parse_directives("// CHECK: RUN: x\n").is_err(), true)?;
            check("unsupported lit directive", parse_directives("// DEFINE: %{x} = y\n").is_err(), true)?;
            check("bad expression", parse_directives("// REQUIRES: a &&\n").is_err(), true)
        }),
        Trial::test("harness::percent_substitutions", || {
            let c = ctx();
            check(
                "%s %S %p %t %% %basename_t %/s",
                expand("echo %s %S %p %t %% %basename_t %/s", &c)?,
                "echo /w/test/ops/add.mlir /w/test/ops /w/test/ops \
                 /w/target/lit-tmp/ops/add.mlir.tmp % add.mlir /w/test/ops/add.mlir"
                    .to_string(),
            )?;
            check("%T is rejected like LLVM 22 lit", expand("mkdir %T", &c).is_err(), true)?;
            check("%%T is fine", expand("echo %%T", &c)?, "echo %T".into())?;
            check("%t suffix", expand("echo %t.out", &c)?, "echo /w/target/lit-tmp/ops/add.mlir.tmp.out".into())?;
            check("%% then s", expand("printf '%%s'", &c)?, "printf '%s'".into())?;
            check("unknown kept", expand("echo %0 %arg0", &c)?, "echo %0 %arg0".into())
        }),
        Trial::test("harness::tool_substitutions", || {
            let c = ctx();
            check(
                "pipeline",
                expand("hlo-opt %s | FileCheck %s", &c)?,
                "/bin/HLO-OPT /w/test/ops/add.mlir | /llvm/FileCheck /w/test/ops/add.mlir".into(),
            )?;
            check(
                "not / not --crash / && / || / ;",
                expand("not hlo-opt x && not --crash hlo-opt y || count 0 ; FileCheck z", &c)?,
                "/llvm/not /bin/HLO-OPT x && /llvm/not --crash /bin/HLO-OPT y || \
                 /llvm/count 0 ; /llvm/FileCheck z"
                    .into(),
            )?;
            check(
                "not inside paths, arguments, patterns or quotes",
                expand(
                    "cat test/hlo-opt/x.mlir | FileCheck --check-prefix=hlo-opt %s --implicit-check-not='not hlo-opt' 2>&1",
                    &c,
                )?,
                "cat test/hlo-opt/x.mlir | /llvm/FileCheck --check-prefix=hlo-opt /w/test/ops/add.mlir \
                 --implicit-check-not='not hlo-opt' 2>&1"
                    .into(),
            )?;
            check("word boundary", expand("hlo-optimize x; counting", &c)?, "hlo-optimize x; counting".into())?;
            check(
                "redirects are not command starts",
                expand("hlo-opt x 2>&1 | count 1", &c)?,
                "/bin/HLO-OPT x 2>&1 | /llvm/count 1".into(),
            )
        }),
        Trial::test("harness::feature_expressions", || {
            let f: std::collections::BTreeSet<String> =
                ["linux", "x86_64", "filecheck"].iter().map(|s| s.to_string()).collect();
            let eval = |s: &str| parse_expr(s).map(|e| e.eval(&f));
            check("a", eval("linux"), Ok(true))?;
            check("!a", eval("!cuda"), Ok(true))?;
            check("a && b", eval("linux && cuda"), Ok(false))?;
            check("a || b", eval("cuda || x86_64"), Ok(true))?;
            check("parens", eval("!(cuda || aarch64) && filecheck"), Ok(true))?;
            check("error", eval("(linux").is_err(), true)
        }),
        Trial::test("harness::available_features", || {
            let f = available_features();
            for want in ["linux", "filecheck"] {
                if !f.contains(want) {
                    return Err(format!("missing feature {want}: {f:?}").into());
                }
            }
            check("arch", f.contains("x86_64") || f.contains("aarch64"), true)
        }),
        Trial::test("harness::truncate", || {
            let long = "x".repeat(100_000);
            let t = truncate(&long);
            check("bounded", t.len() < 20_000, true)?;
            check("marked", t.contains("bytes omitted"), true)
        }),
    ]
}
