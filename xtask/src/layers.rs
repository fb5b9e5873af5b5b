//! `cargo xtask check-layers`: the crate layering written in `docs/architecture.md` (its fenced
//! ```` ```layers ```` block) checked against the dependencies the manifests declare.
//!
//! Grammar of the block, one rule a line (`#` starts a comment, blank lines are ignored):
//! `KEY: NAME...`, names separated by whitespace. A KEY that is a workspace package lists every
//! workspace package it may depend on directly; every workspace package needs exactly one such
//! line. Any other KEY is an external crate, and lists the only workspace packages that may depend
//! on it directly (none: no package may). Normal and build dependencies count; dev-dependencies are
//! exempt.
//!
//! Two keys are reserved. `dev-tooling:` lists the workspace packages that are dev tooling (the
//! devnets, test servers, xtask): no other package may depend on one, whatever its own line
//! allows, so production code never carries a devnet. `dev-tooling-allowance:` lists the
//! production packages that still do, while they are moved off it; one that no longer does is
//! reported, so the list only shrinks.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

/// The kind of a declared dependency.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepKind {
    /// `[dependencies]`.
    Normal,
    /// `[dev-dependencies]`, which the layering exempts.
    Dev,
    /// `[build-dependencies]`.
    Build,
}

/// A dependency as a manifest declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dep {
    /// The depended-on package's name (not the name it may be renamed to).
    pub name: String,
    /// Which table declares it.
    pub kind: DepKind,
    /// Whether a feature switches it on.
    pub optional: bool,
}

/// A workspace package and what it declares it depends on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Package {
    /// The package name.
    pub name: String,
    /// Its declared dependencies, in the manifest's order.
    pub deps: Vec<Dep>,
}

/// What check-layers needs of `cargo metadata --format-version 1 --no-deps`.
#[derive(Debug, PartialEq, Eq)]
pub struct Workspace {
    /// The directory of the workspace's root manifest.
    pub root: PathBuf,
    /// Every workspace member.
    pub packages: Vec<Package>,
}

/// Reads the workspace members and their declared dependencies from `cargo metadata` JSON.
pub fn parse_metadata(json: &str) -> Result<Workspace, String> {
    let v: Value = serde_json::from_str(json).map_err(|e| format!("cargo metadata output: {e}"))?;
    let field = |v: &'_ Value, key: &str| -> Result<String, String> {
        v.get(key)
            .and_then(Value::as_str)
            .map(String::from)
            .ok_or_else(|| format!("cargo metadata output: no string `{key}`"))
    };
    let root = PathBuf::from(field(&v, "workspace_root")?);
    let members: BTreeSet<&str> = v
        .get("workspace_members")
        .and_then(Value::as_array)
        .ok_or("cargo metadata output: no `workspace_members`")?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let mut packages = Vec::new();
    let all = v
        .get("packages")
        .and_then(Value::as_array)
        .ok_or("cargo metadata output: no `packages`")?;
    for p in all {
        if !members.contains(field(p, "id")?.as_str()) {
            continue;
        }
        let name = field(p, "name")?;
        let mut deps = Vec::new();
        for d in p
            .get("dependencies")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let kind = match d.get("kind").and_then(Value::as_str) {
                None => DepKind::Normal,
                Some("dev") => DepKind::Dev,
                Some("build") => DepKind::Build,
                Some(other) => {
                    return Err(format!(
                        "cargo metadata output: {name} has a dependency of unknown kind `{other}`"
                    ));
                }
            };
            deps.push(Dep {
                name: field(d, "name")?,
                kind,
                optional: d.get("optional").and_then(Value::as_bool).unwrap_or(false),
            });
        }
        packages.push(Package { name, deps });
    }
    Ok(Workspace { root, packages })
}

/// The key of the rule listing the dev-tooling packages.
pub const DEV_TOOLING: &str = "dev-tooling";

/// The key of the rule listing the production packages still allowed to depend on dev tooling.
pub const DEV_TOOLING_ALLOWANCE: &str = "dev-tooling-allowance";

/// Whether a rule key is one of the reserved ones rather than a package or an external crate.
fn reserved(key: &str) -> bool {
    key == DEV_TOOLING || key == DEV_TOOLING_ALLOWANCE
}

/// One line of the rules block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// Its line number in the rules file, from 1.
    pub line: usize,
    /// A workspace package or an external crate.
    pub key: String,
    /// The workspace packages the rule allows.
    pub allowed: Vec<String>,
}

/// The rules of every ```` ```layers ```` block of a Markdown text, in order. Errors (no block, an
/// unclosed block, a malformed or repeated line) come one per line, each with its line number.
pub fn parse_rules(text: &str, file: &str) -> Result<Vec<Rule>, String> {
    let mut rules: Vec<Rule> = Vec::new();
    let mut errors = Vec::new();
    let mut blocks = 0;
    // The open fence's character and length while inside a block, and whether it is `layers`.
    let mut fence: Option<(char, usize, bool)> = None;
    let mut opened_at = 0;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        if let Some((c, len, layers)) = fence {
            if let Some((c2, len2, info)) = fence_line(raw)
                && c2 == c
                && len2 >= len
                && info.is_empty()
            {
                fence = None;
                continue;
            }
            if layers {
                match parse_rule(raw, n) {
                    Ok(Some(rule)) => {
                        if let Some(first) = rules.iter().find(|r| r.key == rule.key) {
                            errors.push(format!(
                                "{file} line {n}: a second rule for {} (the first is on line {})",
                                rule.key, first.line
                            ));
                        } else {
                            rules.push(rule);
                        }
                    }
                    Ok(None) => {}
                    Err(e) => errors.push(format!("{file} line {n}: {e}")),
                }
            }
        } else if let Some((c, len, info)) = fence_line(raw) {
            let layers = info.split_whitespace().next() == Some("layers");
            blocks += usize::from(layers);
            fence = Some((c, len, layers));
            opened_at = n;
        }
    }
    if let Some((_, _, true)) = fence {
        errors.push(format!(
            "{file} line {opened_at}: the ```layers block is not closed"
        ));
    }
    if blocks == 0 {
        errors.push(format!(
            "{file} has no ```layers block (the rules of `cargo xtask check-layers`)"
        ));
    }
    if errors.is_empty() {
        Ok(rules)
    } else {
        Err(errors.join("\n"))
    }
}

/// A fence line (up to three spaces, then three or more backticks or tildes): its character,
/// length and info string.
fn fence_line(line: &str) -> Option<(char, usize, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let c = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let len = rest.len() - rest.trim_start_matches(c).len();
    (len >= 3).then(|| (c, len, rest[len..].trim()))
}

/// One line of a rules block: a rule, or nothing for a blank or comment line.
fn parse_rule(raw: &str, line: usize) -> Result<Option<Rule>, String> {
    let text = raw.split('#').next().unwrap_or("").trim();
    if text.is_empty() {
        return Ok(None);
    }
    let (key, rest) = text
        .split_once(':')
        .ok_or_else(|| format!("`{text}` is not `NAME: NAME...`"))?;
    let key = key.trim();
    let allowed: Vec<String> = rest.split_whitespace().map(String::from).collect();
    for name in std::iter::once(key).chain(allowed.iter().map(String::as_str)) {
        let ok = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !ok {
            return Err(format!(
                "`{name}` is not a package name (names are separated by spaces)"
            ));
        }
    }
    Ok(Some(Rule {
        line,
        key: key.into(),
        allowed,
    }))
}

/// The outcome of a check.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Workspace packages checked.
    pub crates: usize,
    /// Distinct normal or build dependencies between workspace packages.
    pub edges: usize,
    /// Rules for external crates.
    pub external_rules: usize,
    /// Dev-tooling packages, which no production package may depend on.
    pub dev_tooling: usize,
    /// One line per violation or rule error; none when everything is allowed.
    pub problems: Vec<String>,
}

/// Checks every package's normal and build dependencies against the rules (from `file`).
pub fn check(rules: &[Rule], packages: &[Package], file: &str) -> Report {
    let members: BTreeSet<&str> = packages.iter().map(|p| p.name.as_str()).collect();
    let by_key: BTreeMap<&str, &Rule> = rules
        .iter()
        .filter(|r| !reserved(&r.key))
        .map(|r| (r.key.as_str(), r))
        .collect();
    let reserved_rule = |key: &str| rules.iter().find(|r| r.key == key);
    let dev_rule = reserved_rule(DEV_TOOLING);
    let allowance_rule = reserved_rule(DEV_TOOLING_ALLOWANCE);
    let names = |r: Option<&Rule>| -> BTreeSet<String> {
        r.map(|r| r.allowed.iter().cloned().collect())
            .unwrap_or_default()
    };
    let dev_tooling = names(dev_rule);
    let allowance = names(allowance_rule);
    // The allowed production packages that were found depending on dev tooling.
    let mut allowance_used = BTreeSet::new();
    let mut problems = Vec::new();
    for r in rules {
        for name in &r.allowed {
            if !members.contains(name.as_str()) {
                problems.push(format!(
                    "{file} (layers) line {}: {} names {name}, which is not a workspace package",
                    r.line, r.key
                ));
            }
        }
    }
    // A non-empty allowance for a crate nobody depends on is dead, most likely a package that was
    // renamed; an empty one is a ban and may well name a crate nobody uses.
    let used: BTreeSet<&str> = packages
        .iter()
        .flat_map(|p| p.deps.iter().map(|d| d.name.as_str()))
        .collect();
    for r in rules {
        let key = r.key.as_str();
        if !reserved(key) && !members.contains(key) && !used.contains(key) && !r.allowed.is_empty()
        {
            problems.push(format!(
                "{file} (layers) line {}: {key} is neither a workspace package nor a dependency of \
                 one (renamed or removed?); drop the line, or list no packages to forbid it",
                r.line
            ));
        }
    }
    for p in packages {
        if !by_key.contains_key(p.name.as_str()) {
            problems.push(format!(
                "{} has no rule in {file} (layers); every workspace package needs one \
                 (`{}:` and the workspace packages it may depend on)",
                p.name, p.name
            ));
        }
    }
    let mut edges = BTreeSet::new();
    for p in packages {
        // Each dependency is judged once, even if declared for several targets or kinds.
        let mut seen = BTreeSet::new();
        for d in p.deps.iter().filter(|d| d.kind != DepKind::Dev) {
            if !seen.insert(d.name.as_str()) {
                continue;
            }
            let how = match (d.kind, d.optional) {
                (DepKind::Build, true) => " (build, optional)",
                (DepKind::Build, false) => " (build)",
                (_, true) => " (optional)",
                _ => "",
            };
            if dev_tooling.contains(&d.name) && !dev_tooling.contains(&p.name) {
                if allowance.contains(&p.name) {
                    allowance_used.insert(p.name.as_str());
                } else {
                    let line = dev_rule.map_or(0, |r| r.line);
                    problems.push(format!(
                        "{} depends on {}{how}, which is dev tooling ({file} (layers) line \
                         {line}): a production package may have it only as a dev-dependency",
                        p.name, d.name
                    ));
                }
            }
            if members.contains(d.name.as_str()) {
                edges.insert((p.name.as_str(), d.name.as_str()));
                let allowed = by_key
                    .get(p.name.as_str())
                    .is_some_and(|r| r.allowed.contains(&d.name));
                // A package without a rule is reported once above, not once per dependency.
                if !allowed && by_key.contains_key(p.name.as_str()) {
                    problems.push(format!(
                        "{} depends on {}{how}, which {file} (layers) does not allow",
                        p.name, d.name
                    ));
                }
            } else if let Some(r) = by_key.get(d.name.as_str())
                && !r.allowed.contains(&p.name)
            {
                let only = if r.allowed.is_empty() {
                    "no workspace package may".to_string()
                } else {
                    format!("only {} may", r.allowed.join(" "))
                };
                problems.push(format!(
                    "{} depends on {}{how}, which {file} (layers) does not allow ({only})",
                    p.name, d.name
                ));
            }
        }
    }
    if let Some(r) = allowance_rule {
        for name in r.allowed.iter().filter(|n| members.contains(n.as_str())) {
            if !allowance_used.contains(name.as_str()) {
                problems.push(format!(
                    "{file} (layers) line {}: {DEV_TOOLING_ALLOWANCE} names {name}, which depends \
                     on no dev tooling (any more): drop it from the list",
                    r.line
                ));
            }
        }
    }
    Report {
        crates: packages.len(),
        edges: edges.len(),
        external_rules: rules
            .iter()
            .filter(|r| !reserved(&r.key) && !members.contains(r.key.as_str()))
            .count(),
        dev_tooling: dev_tooling.len(),
        problems,
    }
}

/// Runs the check on this workspace: `check-layers [--rules FILE]`.
pub fn run(args: &[String]) -> Result<(), String> {
    let rules_arg = match args {
        [] => None,
        [flag, file] if flag == "--rules" => Some(file.as_str()),
        _ => return Err("usage: cargo xtask check-layers [--rules FILE]".into()),
    };
    let out = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("could not run `cargo metadata`: {e}"))?;
    if !out.status.success() {
        return Err(format!("`cargo metadata` failed ({})", out.status));
    }
    let ws = parse_metadata(&String::from_utf8_lossy(&out.stdout))?;
    let (path, shown) = match rules_arg {
        Some(f) => (PathBuf::from(f), f.to_string()),
        None => (
            ws.root.join("docs/architecture.md"),
            "docs/architecture.md".to_string(),
        ),
    };
    let text = read(&path)?;
    let rules = parse_rules(&text, &shown).map_err(|e| e.replace('\n', "\nxtask: "))?;
    let report = check(&rules, &ws.packages, &shown);
    if !report.problems.is_empty() {
        return Err(format!(
            "layers: {}\nxtask: layers: {} problem(s) with the crate layering",
            report.problems.join("\nxtask: layers: "),
            report.problems.len()
        ));
    }
    eprintln!(
        "xtask: layers: {} crates, {} workspace edges, {} external rules, {} dev-tooling packages: \
         all allowed",
        report.crates, report.edges, report.external_rules, report.dev_tooling
    );
    Ok(())
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkg(name: &str, deps: &[(&str, DepKind)]) -> Package {
        Package {
            name: name.into(),
            deps: deps
                .iter()
                .map(|(n, kind)| Dep {
                    name: (*n).into(),
                    kind: *kind,
                    optional: false,
                })
                .collect(),
        }
    }

    use DepKind::{Build, Dev, Normal};

    fn workspace() -> Vec<Package> {
        vec![
            pkg("snowline-types", &[("hex", Normal)]),
            pkg(
                "snowline-store",
                &[("snowline-types", Normal), ("rocksdb", Normal)],
            ),
            pkg(
                "snowline-query",
                &[
                    ("snowline-types", Normal),
                    ("snowline-store", Dev),
                    ("rocksdb", Dev),
                ],
            ),
            pkg(
                "data-api",
                &[
                    ("snowline-query", Normal),
                    ("snowline-store", Normal),
                    ("snowline-types", Normal),
                ],
            ),
        ]
    }

    const RULES: &str = "\
# Architecture

```
not: a rule
```

```layers
# workspace packages
snowline-types:
snowline-store: snowline-types   # storage
snowline-query: snowline-types
data-api: snowline-query snowline-store snowline-types

# external crates
rocksdb: snowline-store
```
";

    fn run_check(rules: &str, packages: &[Package]) -> Report {
        let rules = parse_rules(rules, "docs/architecture.md").unwrap();
        check(&rules, packages, "docs/architecture.md")
    }

    #[test]
    fn allowed_layering_passes() {
        let report = run_check(RULES, &workspace());
        assert_eq!(
            report,
            Report {
                crates: 4,
                edges: 5,
                external_rules: 1,
                dev_tooling: 0,
                problems: vec![],
            }
        );
    }

    #[test]
    fn rules_parse_with_line_numbers() {
        let rules = parse_rules(RULES, "f").unwrap();
        assert_eq!(rules.len(), 5);
        assert_eq!(
            rules[1],
            Rule {
                line: 10,
                key: "snowline-store".into(),
                allowed: vec!["snowline-types".into()],
            }
        );
        assert!(rules[0].allowed.is_empty());
    }

    #[test]
    fn a_forbidden_workspace_edge_is_reported() {
        let mut ws = workspace();
        ws[2].deps.push(Dep {
            name: "snowline-store".into(),
            kind: Build,
            optional: false,
        });
        let report = run_check(RULES, &ws);
        assert_eq!(
            report.problems,
            [
                "snowline-query depends on snowline-store (build), which docs/architecture.md \
              (layers) does not allow"
            ]
        );
    }

    #[test]
    fn a_dev_dependency_is_exempt() {
        let mut ws = workspace();
        ws[0].deps.push(Dep {
            name: "data-api".into(),
            kind: Dev,
            optional: false,
        });
        assert_eq!(run_check(RULES, &ws).problems, Vec::<String>::new());
    }

    #[test]
    fn an_external_rule_is_enforced() {
        let mut ws = workspace();
        ws[3].deps.push(Dep {
            name: "rocksdb".into(),
            kind: Normal,
            optional: true,
        });
        assert_eq!(
            run_check(RULES, &ws).problems,
            [
                "data-api depends on rocksdb (optional), which docs/architecture.md (layers) does \
              not allow (only snowline-store may)"
            ]
        );
    }

    #[test]
    fn a_member_without_a_rule_is_reported() {
        let mut ws = workspace();
        ws.push(pkg("xtask", &[("snowline-types", Normal)]));
        assert_eq!(
            run_check(RULES, &ws).problems,
            [
                "xtask has no rule in docs/architecture.md (layers); every workspace package needs \
              one (`xtask:` and the workspace packages it may depend on)"
            ]
        );
    }

    #[test]
    fn a_rule_naming_an_unknown_package_is_reported() {
        let rules = RULES.replace(
            "snowline-query: snowline-types",
            "snowline-query: snowline-types snowline-indexer",
        );
        assert_eq!(
            run_check(&rules, &workspace()).problems,
            [
                "docs/architecture.md (layers) line 11: snowline-query names snowline-indexer, \
              which is not a workspace package"
            ]
        );
        let rules = RULES.replace("rocksdb: snowline-store", "rocksdb: snowline-stor");
        let problems = run_check(&rules, &workspace()).problems;
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].contains("rocksdb names snowline-stor, which is not"));
        assert!(problems[1].starts_with("snowline-store depends on rocksdb"));
    }

    #[test]
    fn a_stale_external_rule_is_reported_but_a_ban_is_not() {
        let rules = RULES.replace(
            "rocksdb: snowline-store",
            "rocksdb: snowline-store\nsnowline-indexer: snowline-types\nopenssl:",
        );
        assert_eq!(
            run_check(&rules, &workspace()).problems,
            [
                "docs/architecture.md (layers) line 16: snowline-indexer is neither a workspace \
              package nor a dependency of one (renamed or removed?); drop the line, or list no \
              packages to forbid it"
            ]
        );
        let mut ws = workspace();
        ws[1].deps.push(Dep {
            name: "openssl".into(),
            kind: Normal,
            optional: false,
        });
        let rules = RULES.replace(
            "rocksdb: snowline-store",
            "rocksdb: snowline-store\nopenssl:",
        );
        assert_eq!(
            run_check(&rules, &ws).problems,
            [
                "snowline-store depends on openssl, which docs/architecture.md (layers) does not \
              allow (no workspace package may)"
            ]
        );
    }

    /// A devnet, a production library and binary built on it, and a test server.
    fn dev_workspace() -> Vec<Package> {
        vec![
            pkg("snowline-types", &[("snowline-devnet", Dev)]),
            pkg("snowline-devnet", &[("snowline-types", Normal)]),
            pkg(
                "snowline-fault-upstream",
                &[("snowline-devnet", Normal), ("snowline-types", Normal)],
            ),
            pkg(
                "snowline-p2p",
                &[("snowline-devnet", Normal), ("snowline-types", Normal)],
            ),
            pkg(
                "node-rpc",
                &[("snowline-devnet", Build), ("snowline-p2p", Normal)],
            ),
        ]
    }

    const DEV_RULES: &str = "\
```layers
snowline-types:
snowline-devnet: snowline-types
snowline-fault-upstream: snowline-devnet snowline-types
snowline-p2p: snowline-devnet snowline-types
node-rpc: snowline-devnet snowline-p2p
dev-tooling: snowline-devnet snowline-fault-upstream   # the test servers
dev-tooling-allowance: node-rpc
```
";

    #[test]
    fn a_production_dependency_on_dev_tooling_is_reported_even_when_its_line_allows_it() {
        let report = run_check(DEV_RULES, &dev_workspace());
        // The test server may use the devnet, a dev-dependency is exempt, the allowance holds.
        assert_eq!(
            report.problems,
            [
                "snowline-p2p depends on snowline-devnet, which is dev tooling \
                 (docs/architecture.md (layers) line 7): a production package may have it only \
                 as a dev-dependency"
            ]
        );
        assert_eq!((report.external_rules, report.dev_tooling), (0, 2));

        // Without the allowance, the binary's build dependency is reported too.
        let rules = DEV_RULES.replace("dev-tooling-allowance: node-rpc\n", "");
        let problems = run_check(&rules, &dev_workspace()).problems;
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(
            problems[1]
                .starts_with("node-rpc depends on snowline-devnet (build), which is dev tooling"),
            "{problems:?}"
        );
    }

    #[test]
    fn an_allowance_no_longer_needed_is_reported() {
        let mut ws = dev_workspace();
        ws[3].deps.retain(|d| d.name != "snowline-devnet");
        ws[4].deps.retain(|d| d.name != "snowline-devnet");
        assert_eq!(
            run_check(DEV_RULES, &ws).problems,
            [
                "docs/architecture.md (layers) line 8: dev-tooling-allowance names node-rpc, \
                 which depends on no dev tooling (any more): drop it from the list"
            ]
        );
        let rules = DEV_RULES.replace(
            "dev-tooling: snowline-devnet",
            "dev-tooling: snowline-devnt",
        );
        assert!(
            run_check(&rules, &ws).problems[0]
                .contains("dev-tooling names snowline-devnt, which is not a workspace package")
        );
    }

    /// The rules this repository is checked against keep the derive kit on the store and the
    /// types alone, and the devnets out of production code.
    #[test]
    fn the_repository_rules_hold_the_derive_kit_and_the_devnets_down() {
        let rules = parse_rules(
            include_str!("../../docs/architecture.md"),
            "docs/architecture.md",
        )
        .unwrap();
        let allowed = |key: &str| -> Vec<&str> {
            rules
                .iter()
                .find(|r| r.key == key)
                .map(|r| r.allowed.iter().map(String::as_str).collect())
                .unwrap_or_default()
        };
        assert_eq!(
            allowed("snowline-derive"),
            ["snowline-store", "snowline-types"]
        );
        let dev = allowed(DEV_TOOLING);
        for tool in ["snowline-devnet", "snowline-evm-devnet"] {
            assert!(dev.contains(&tool), "{dev:?}");
        }
    }

    #[test]
    fn a_missing_block_is_an_error() {
        let err = parse_rules("# Architecture\n\n```\nsnowline-types:\n```\n", "a.md");
        assert_eq!(
            err,
            Err("a.md has no ```layers block (the rules of `cargo xtask check-layers`)".into())
        );
    }

    #[test]
    fn malformed_blocks_are_errors() {
        let err = parse_rules("```layers\nsnowline-types snowline-store\n", "a.md").unwrap_err();
        assert_eq!(
            err,
            "a.md line 2: `snowline-types snowline-store` is not `NAME: NAME...`\n\
             a.md line 1: the ```layers block is not closed"
        );
        let err = parse_rules("```layers\na: b, c\na: b\n```\n", "a.md").unwrap_err();
        assert_eq!(
            err,
            "a.md line 2: `b,` is not a package name (names are separated by spaces)"
        );
        let err = parse_rules("```layers\na: b\na: c\n```\n", "a.md").unwrap_err();
        assert_eq!(
            err,
            "a.md line 3: a second rule for a (the first is on line 2)"
        );
    }

    #[test]
    fn fences_follow_commonmark() {
        let text = "~~~~ layers\nx: y\n~~~~~\n```\nz:\n```\n  ```layers\nw:\n  ```\n";
        let rules = parse_rules(text, "a.md").unwrap();
        let keys: Vec<&str> = rules.iter().map(|r| r.key.as_str()).collect();
        assert_eq!(keys, ["x", "w"]);
        // A shorter or different fence does not close the block: it is a (malformed) rule.
        assert!(parse_rules("~~~~ layers\nx:\n~~~\n~~~~\n", "a.md").is_err());
        assert!(parse_rules("```layers\nx:\n~~~\n```\n", "a.md").is_err());
        assert!(parse_rules("```layersx\na:\n```\n", "a.md").is_err());
        assert!(parse_rules("    ```layers\na:\n    ```\n", "a.md").is_err());
    }

    #[test]
    fn cargo_metadata_is_read() {
        let ws = parse_metadata(include_str!("../tests/fixtures/metadata.json")).unwrap();
        assert_eq!(ws.root, PathBuf::from("/work/snowline"));
        let names: Vec<&str> = ws.packages.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            ["snowline-types", "snowline-store", "data-api", "xtask"]
        );
        assert_eq!(
            ws.packages[2].deps,
            [
                Dep {
                    name: "snowline-store".into(),
                    kind: Normal,
                    optional: false,
                },
                Dep {
                    name: "snowline-types".into(),
                    kind: Normal,
                    optional: true,
                },
                Dep {
                    name: "rocksdb".into(),
                    kind: Build,
                    optional: false,
                },
                Dep {
                    name: "snowline-query".into(),
                    kind: Dev,
                    optional: false,
                },
            ]
        );
        let rules = "```layers\nsnowline-types:\nsnowline-store: snowline-types\n\
                     data-api: snowline-types\nxtask:\nrocksdb: snowline-store\n```\n";
        let report = run_check(rules, &ws.packages);
        assert_eq!(
            (report.crates, report.edges, report.external_rules),
            (4, 3, 1)
        );
        assert_eq!(
            report.problems,
            [
                "data-api depends on snowline-store, which docs/architecture.md (layers) does \
                 not allow",
                "data-api depends on rocksdb (build), which docs/architecture.md (layers) does \
                 not allow (only snowline-store may)",
            ]
        );
    }
}
