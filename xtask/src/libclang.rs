//! Finds libclang exactly where and under exactly the names `clang-sys` looks for it, so that
//! `cargo xtask setup` installs libclang-dev precisely when RocksDB's bindgen run would fail.
//!
//! Followed: clang-sys 1.9.1 (the version in Cargo.lock), `build/dynamic.rs` (`find`,
//! `search_libclang_directories`, `parse_version`, `validate_library`) and `build/common.rs`
//! (`search_libclang_directories`, `search_directory`, `DIRECTORIES_LINUX`), on Linux and with
//! `runtime = true`: librocksdb-sys enables bindgen's `runtime` feature, so clang-sys runs this
//! search when bindgen loads libclang, and also accepts the suffix-versioned names.
//! clang-sys does not read `ldconfig -p`; its entries count here only where clang-sys would look
//! anyway, and elsewhere only feed the hint to set `LIBCLANG_PATH`.

use std::io::Read;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

/// The file-name globs clang-sys accepts on Linux when loading at run time, in its order.
const FILE_PATTERNS: [&str; 4] = [
    "libclang.so",
    "libclang-*.so",
    "libclang.so.*",
    "libclang-*.so.*",
];

/// The directory globs clang-sys searches on Linux, best first (`DIRECTORIES_LINUX`).
const DIRECTORIES_LINUX: [&str; 7] = [
    "/usr/local/llvm*/lib*",
    "/usr/local/lib*/*/*",
    "/usr/local/lib*/*",
    "/usr/local/lib*",
    "/usr/lib*/*/*",
    "/usr/lib*/*",
    "/usr/lib*",
];

/// The file-name patterns in words, for messages.
pub const NAMES: &str = "libclang.so, libclang-*.so, libclang.so.* or libclang-*.so.* \
                         (never libclang-cpp)";

/// The file system as the search sees it, so the search runs over fake layouts in tests.
pub trait Fs {
    /// The names of the entries of `dir`, sorted; none if it is not a readable directory.
    fn entries(&self, dir: &Path) -> Vec<String>;
    /// Whether `path` is a directory, following symbolic links.
    fn is_dir(&self, path: &Path) -> bool;
}

/// The machine's own file system.
pub struct RealFs;

impl Fs for RealFs {
    fn entries(&self, dir: &Path) -> Vec<String> {
        // An empty directory path is the current directory, as for clang-sys's relative globs.
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| e.file_name().into_string().ok())
            .collect();
        names.sort();
        names
    }

    fn is_dir(&self, path: &Path) -> bool {
        path.is_dir()
    }
}

/// What the search reads besides the file system: the environment and two commands' outputs.
#[derive(Debug, Default)]
pub struct Inputs {
    /// `LIBCLANG_PATH`: when set, the only place clang-sys looks (a directory or a file).
    pub libclang_path: Option<PathBuf>,
    /// The first line of `llvm-config --prefix` (`LLVM_CONFIG_PATH` names the program).
    pub llvm_prefix: Option<PathBuf>,
    /// The directories of `LD_LIBRARY_PATH`.
    pub ld_library_path: Vec<PathBuf>,
    /// The directories of `LIBRARY_PATH`.
    pub library_path: Vec<PathBuf>,
    /// The output of `ldconfig -p` (empty if it did not run).
    pub ldconfig: String,
}

impl Inputs {
    /// Reads the inputs from this process's environment and this machine's commands.
    pub fn from_system() -> Self {
        let paths = |var: &str| {
            std::env::var_os(var)
                .map(|v| std::env::split_paths(&v).collect())
                .unwrap_or_default()
        };
        let stdout = |c: &mut Command| {
            c.output()
                .ok()
                .filter(|o| o.status.success())
                .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        };
        let llvm_config =
            std::env::var_os("LLVM_CONFIG_PATH").unwrap_or_else(|| "llvm-config".into());
        Inputs {
            // clang-sys reads it with `env::var`, so a value that is not UTF-8 counts as unset.
            libclang_path: std::env::var("LIBCLANG_PATH").ok().map(PathBuf::from),
            llvm_prefix: stdout(Command::new(llvm_config).arg("--prefix"))
                .and_then(|o| o.lines().next().map(PathBuf::from)),
            ld_library_path: paths("LD_LIBRARY_PATH"),
            library_path: paths("LIBRARY_PATH"),
            ldconfig: stdout(Command::new("ldconfig").arg("-p")).unwrap_or_default(),
        }
    }
}

/// The result of the search, before any file is opened.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Search {
    /// Every matching file where clang-sys looks, in its order of preference.
    pub candidates: Vec<PathBuf>,
    /// Matching files `ldconfig -p` knows in directories clang-sys does not search.
    pub unsearched: Vec<PathBuf>,
}

/// Whether `name` is a file name clang-sys accepts as libclang on Linux at run time.
pub fn is_libclang_name(name: &str) -> bool {
    // clang-sys drops `libclang-cpp` (the renamed `libclang_shared`) by this very test.
    FILE_PATTERNS.iter().any(|p| wildcard(p, name, false)) && !name.contains("-cpp.")
}

/// The version clang-sys reads from a file name: `libclang-14.so.1` is `[14, 0]` (sic: it cuts
/// three characters off the end), `libclang.so.1` is `[1]`, `libclang.so` is `[]`.
pub fn version(name: &str) -> Vec<u32> {
    let version = if let Some(v) = name.strip_prefix("libclang.so.") {
        v
    } else if name.starts_with("libclang-") {
        name.get(9..name.len().saturating_sub(3)).unwrap_or("")
    } else {
        return Vec::new();
    };
    version.split('.').map(|s| s.parse().unwrap_or(0)).collect()
}

/// The library clang-sys loads among valid ones in order of preference: the highest version, the
/// earliest on a tie.
pub fn pick(valid: &[PathBuf]) -> Option<&PathBuf> {
    let key = |p: &PathBuf| version(&p.file_name().unwrap_or_default().to_string_lossy());
    let mut best: Option<(&PathBuf, Vec<u32>)> = None;
    for p in valid {
        let v = key(p);
        if best.as_ref().is_none_or(|(_, b)| v > *b) {
            best = Some((p, v));
        }
    }
    best.map(|(p, _)| p)
}

/// Every libclang clang-sys would consider, in its order, plus what `ldconfig` knows elsewhere.
pub fn search(inputs: &Inputs, fs: &impl Fs) -> Search {
    let ldconfig = ldconfig_libclangs(&inputs.ldconfig);
    if let Some(path) = &inputs.libclang_path {
        // A file path is taken as is if it matches; otherwise the path is a directory to search.
        let mut candidates = Vec::new();
        if let (Some(parent), Some(name)) = (path.parent(), path.file_name())
            && search_directory(parent, fs)
                .iter()
                .any(|p| p.file_name() == Some(name))
        {
            candidates.push(path.clone());
        } else {
            candidates = search_directory(path, fs);
        }
        return Search {
            candidates,
            unsearched: ldconfig,
        };
    }
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let Some(prefix) = &inputs.llvm_prefix {
        dirs.extend(["bin", "lib", "lib64"].map(|d| prefix.join(d)));
    }
    dirs.extend(inputs.ld_library_path.iter().cloned());
    dirs.extend(inputs.library_path.iter().cloned());
    let listed = dirs.clone();
    for pattern in DIRECTORIES_LINUX {
        dirs.extend(expand(pattern, fs));
    }
    let mut candidates: Vec<PathBuf> = dirs.iter().flat_map(|d| search_directory(d, fs)).collect();
    let mut unsearched = Vec::new();
    for lib in ldconfig {
        let dir = lib.parent().unwrap_or(Path::new(""));
        let searched = listed.iter().any(|d| d == dir)
            || DIRECTORIES_LINUX.iter().any(|p| dir_matches(p, dir));
        if !searched {
            unsearched.push(lib);
        } else if !candidates.contains(&lib) {
            candidates.push(lib);
        }
    }
    Search {
        candidates,
        unsearched,
    }
}

/// The matching files of one directory: per pattern in clang-sys's order, sorted by name.
fn search_directory(dir: &Path, fs: &impl Fs) -> Vec<PathBuf> {
    let names = fs.entries(dir);
    FILE_PATTERNS
        .iter()
        .flat_map(|p| {
            names
                .iter()
                .filter(move |n| wildcard(p, n, false) && !n.contains("-cpp."))
        })
        .map(|n| dir.join(n))
        .collect()
}

/// The libclang files named in `ldconfig -p` output (`\tname (flags) => /dir/file`).
pub fn ldconfig_libclangs(output: &str) -> Vec<PathBuf> {
    output
        .lines()
        .filter_map(|l| l.rsplit_once(" => "))
        .map(|(_, path)| PathBuf::from(path.trim()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(is_libclang_name)
        })
        .collect()
}

/// The directories a clang-sys directory glob matches, in the glob crate's (sorted) order.
/// Components with `*` match case-insensitively; literal ones must exist as they are.
fn expand(pattern: &str, fs: &impl Fs) -> Vec<PathBuf> {
    let mut found = vec![PathBuf::from("/")];
    for part in pattern.split('/').filter(|p| !p.is_empty()) {
        found = found
            .iter()
            .flat_map(|dir| {
                if part.contains('*') {
                    fs.entries(dir)
                        .into_iter()
                        .filter(|n| wildcard(part, n, true))
                        .map(|n| dir.join(n))
                        .collect()
                } else {
                    vec![dir.join(part)]
                }
            })
            .filter(|p| fs.is_dir(p))
            .collect();
    }
    found
}

/// Whether the absolute directory `dir` is one that the directory glob `pattern` matches.
fn dir_matches(pattern: &str, dir: &Path) -> bool {
    let parts: Vec<&str> = pattern.split('/').filter(|p| !p.is_empty()).collect();
    let mut comps = dir.components();
    if comps.next() != Some(Component::RootDir) {
        return false;
    }
    let comps: Vec<_> = comps.collect();
    comps.len() == parts.len()
        && comps.iter().zip(&parts).all(|(c, p)| match c {
            Component::Normal(n) => n.to_str().is_some_and(|n| {
                if p.contains('*') {
                    wildcard(p, n, true)
                } else {
                    n == *p
                }
            }),
            _ => false,
        })
}

/// Glob matching of one path component where `*` is the only wildcard (any run of characters).
fn wildcard(pattern: &str, name: &str, ignore_case: bool) -> bool {
    let eq = |a: u8, b: u8| {
        if ignore_case {
            a.eq_ignore_ascii_case(&b)
        } else {
            a == b
        }
    };
    let (p, n) = (pattern.as_bytes(), name.as_bytes());
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < n.len() {
        if i < p.len() && p[i] == b'*' {
            star = Some((i, j));
            i += 1;
        } else if i < p.len() && eq(p[i], n[j]) {
            i += 1;
            j += 1;
        } else if let Some((si, sj)) = star {
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == b'*')
}

/// What the first bytes of a file say about it as an ELF file.
#[derive(Debug, PartialEq, Eq)]
pub struct Elf {
    /// `EI_CLASS`: 1 for 32-bit, 2 for 64-bit.
    pub class: u8,
    /// `e_type` is `ET_DYN`: a shared object (or a position-independent executable).
    pub shared: bool,
}

/// Reads an ELF identification and `e_type` from the first 18 bytes of a file.
pub fn elf_header(bytes: &[u8]) -> Result<Elf, String> {
    if bytes.get(..4) != Some(b"\x7fELF".as_slice()) {
        return Err("not an ELF file".into());
    }
    let (Some(&class), Some(&data), Some(&[a, b])) =
        (bytes.get(4), bytes.get(5), bytes.get(16..18))
    else {
        return Err("truncated ELF header".into());
    };
    let e_type = if data == 2 {
        u16::from_be_bytes([a, b])
    } else {
        u16::from_le_bytes([a, b])
    };
    Ok(Elf {
        class,
        shared: e_type == 3,
    })
}

/// The ELF class of this machine's libraries.
const CLASS: u8 = if cfg!(target_pointer_width = "64") {
    2
} else {
    1
};

/// clang-sys's own test of a candidate: ELF magic and this machine's class. Also reports whether
/// it is a shared object, which clang-sys leaves to the loader.
fn validate(path: &Path) -> Result<Elf, String> {
    let mut head = Vec::with_capacity(18);
    std::fs::File::open(path)
        .and_then(|f| f.take(18).read_to_end(&mut head))
        .map_err(|e| e.to_string())?;
    let elf = elf_header(&head)?;
    match elf.class {
        c if c == CLASS => Ok(elf),
        1 => Err("invalid ELF class (32-bit)".into()),
        _ => Err("invalid ELF class (64-bit)".into()),
    }
}

/// Why libclang was not found, with what would help.
#[derive(Debug)]
pub struct Missing {
    /// One line: what was looked for and where, and what was rejected.
    pub detail: String,
    /// The command that would make clang-sys find a libclang this machine already has, if any.
    pub fix: Option<String>,
}

/// The libclang clang-sys would load on this machine, checked to be a readable ELF shared object.
pub fn find() -> Result<PathBuf, Missing> {
    let inputs = Inputs::from_system();
    let found = find_with(&inputs);
    let Err(mut missing) = found else {
        return found;
    };
    // A wrong LIBCLANG_PATH hides what the ordinary search would find: say so first.
    if let Some(set) = &inputs.libclang_path {
        let unset = Inputs {
            libclang_path: None,
            ..inputs
        };
        if let Ok(p) = find_with(&unset) {
            missing.fix = Some(format!(
                "unset LIBCLANG_PATH (clang-sys then loads {})",
                p.display()
            ));
            missing.detail = format!(
                "no {NAMES} in LIBCLANG_PATH={} (when it is set, clang-sys looks nowhere else); \
                 without it, clang-sys would load {}",
                set.display(),
                p.display()
            );
        }
    }
    Err(missing)
}

/// [`find`] for given inputs, on the real file system.
fn find_with(inputs: &Inputs) -> Result<PathBuf, Missing> {
    let search = search(inputs, &RealFs);
    let mut valid = Vec::new();
    let mut invalid = Vec::new();
    for p in &search.candidates {
        match validate(p) {
            Ok(elf) => valid.push((p.clone(), elf)),
            Err(e) => invalid.push(format!("{}: {e}", p.display())),
        }
    }
    let paths: Vec<PathBuf> = valid.iter().map(|(p, _)| p.clone()).collect();
    if let Some(best) = pick(&paths) {
        if valid.iter().any(|(p, elf)| p == best && elf.shared) {
            return Ok(best.clone());
        }
        return Err(Missing {
            detail: format!(
                "clang-sys would load {}, which is not an ELF shared object",
                best.display()
            ),
            fix: None,
        });
    }
    // Hint only at files ldconfig knows that are not the candidates seen under another name.
    let seen: Vec<PathBuf> = search
        .candidates
        .iter()
        .filter_map(|p| p.canonicalize().ok())
        .collect();
    let hint = search
        .unsearched
        .iter()
        .filter(|p| p.canonicalize().is_ok_and(|c| !seen.contains(&c)))
        .find(|p| validate(p).is_ok_and(|e| e.shared))
        .and_then(|p| p.parent().map(Path::to_path_buf));
    let place = match &inputs.libclang_path {
        Some(p) => format!(
            "in LIBCLANG_PATH={} (when it is set, clang-sys looks nowhere else)",
            p.display()
        ),
        None => "where clang-sys looks (llvm-config --prefix, LD_LIBRARY_PATH, LIBRARY_PATH, \
                 /usr/local/llvm*, /usr/local/lib*, /usr/lib* and two levels below)"
            .into(),
    };
    let mut detail = format!("no {NAMES} {place}");
    if !invalid.is_empty() {
        detail.push_str(&format!("; rejected: {}", invalid.join(", ")));
    }
    if let Some(h) = &hint {
        detail.push_str(&format!(
            "; ldconfig lists one in {}, which clang-sys does not search",
            h.display()
        ));
    }
    Err(Missing {
        detail,
        fix: hint.map(|d| format!("export LIBCLANG_PATH={}", d.display())),
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// A file system holding exactly the given files (directories are their ancestors).
    struct FakeFs(BTreeSet<PathBuf>);

    impl FakeFs {
        fn new(files: &[&str]) -> Self {
            FakeFs(files.iter().map(PathBuf::from).collect())
        }
    }

    impl Fs for FakeFs {
        fn entries(&self, dir: &Path) -> Vec<String> {
            let names: BTreeSet<String> = self
                .0
                .iter()
                .filter_map(|f| f.strip_prefix(dir).ok())
                .filter_map(|rest| rest.components().next())
                .filter_map(|c| c.as_os_str().to_str().map(String::from))
                .filter(|n| !n.is_empty())
                .collect();
            names.into_iter().collect()
        }

        fn is_dir(&self, path: &Path) -> bool {
            self.0.iter().any(|f| f != path && f.starts_with(path))
        }
    }

    fn found(inputs: &Inputs, files: &[&str]) -> Option<PathBuf> {
        pick(&search(inputs, &FakeFs::new(files)).candidates).cloned()
    }

    fn in_dirs(files: &[&str]) -> Option<PathBuf> {
        found(&Inputs::default(), files)
    }

    fn in_ldconfig(output: &str) -> Option<PathBuf> {
        let inputs = Inputs {
            ldconfig: output.into(),
            ..Inputs::default()
        };
        found(&inputs, &[])
    }

    const STOCK_DEBIAN: &str = "\
1234 libs found in cache `/etc/ld.so.cache'
\tlibclang-cpp.so.14 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libclang-cpp.so.14
\tlibc.so.6 (libc6,x86-64, OS ABI: Linux 3.2.0) => /lib/x86_64-linux-gnu/libc.so.6
";

    #[test]
    fn names_follow_clang_sys() {
        for ok in [
            "libclang.so",
            "libclang-14.so",
            "libclang-14.0.6.so",
            "libclang.so.1",
            "libclang.so.7.0",
            "libclang-14.so.13",
            "libclang-14.so.14.0.6",
        ] {
            assert!(is_libclang_name(ok), "{ok}");
        }
        for bad in [
            "libclang-cpp.so.14",
            "libclang-cpp.so",
            "libclang.a",
            "libclangAST.a",
            "libclangBasic.so",
            "libclang.so-gdb.py",
            "liblibclang.so",
            "clang.so",
        ] {
            assert!(!is_libclang_name(bad), "{bad}");
        }
    }

    #[test]
    fn versions_follow_clang_sys() {
        assert_eq!(version("libclang.so"), Vec::<u32>::new());
        assert_eq!(version("libclang.so.1"), [1]);
        assert_eq!(version("libclang.so.7.0"), [7, 0]);
        assert_eq!(version("libclang-14.so"), [14]);
        assert_eq!(version("libclang-14.0.6.so"), [14, 0, 6]);
        assert_eq!(version("libclang-14.so.13"), [14, 0]);
        assert_eq!(version("libclang-14.so.14.0.6"), [14, 0, 14, 0]);
    }

    #[test]
    fn only_libclang_cpp_is_not_found() {
        let fs = ["/usr/lib/x86_64-linux-gnu/libclang-cpp.so.14"];
        assert_eq!(in_dirs(&fs), None);
        assert_eq!(in_ldconfig(STOCK_DEBIAN), None);
        let fs = [
            "/usr/lib/llvm-14/lib/libclang-cpp.so.14",
            "/usr/lib/llvm-14/lib/libclangAST.a",
        ];
        assert_eq!(in_dirs(&fs), None);
    }

    #[test]
    fn versioned_names_are_found_in_directories() {
        for f in [
            "/usr/lib/x86_64-linux-gnu/libclang-14.so.13",
            "/usr/lib/x86_64-linux-gnu/libclang.so.1",
            "/usr/lib/x86_64-linux-gnu/libclang-14.so",
            "/usr/lib/llvm-14/lib/libclang.so",
            "/usr/local/lib/libclang.so.1",
            "/usr/local/llvm18/lib64/libclang.so",
            "/usr/lib64/libclang.so.17",
        ] {
            assert_eq!(in_dirs(&[f]), Some(PathBuf::from(f)), "{f}");
        }
    }

    #[test]
    fn versioned_names_are_found_in_ldconfig() {
        for f in [
            "/usr/lib/x86_64-linux-gnu/libclang-14.so.13",
            "/usr/lib/x86_64-linux-gnu/libclang.so.1",
            "/usr/lib/x86_64-linux-gnu/libclang-14.so",
        ] {
            let name = Path::new(f).file_name().unwrap().to_str().unwrap();
            let out = format!("{STOCK_DEBIAN}\t{name} (libc6,x86-64) => {f}\n");
            assert_eq!(in_ldconfig(&out), Some(PathBuf::from(f)), "{f}");
        }
    }

    #[test]
    fn ldconfig_outside_clang_sys_directories_is_only_a_hint() {
        let out = "\tlibclang.so.1 (libc6,x86-64) => /opt/llvm/lib/libclang.so.1\n";
        let inputs = Inputs {
            ldconfig: out.into(),
            ..Inputs::default()
        };
        let s = search(&inputs, &FakeFs::new(&["/opt/llvm/lib/libclang.so.1"]));
        assert_eq!(s.candidates, Vec::<PathBuf>::new());
        assert_eq!(s.unsearched, [PathBuf::from("/opt/llvm/lib/libclang.so.1")]);
    }

    #[test]
    fn directories_deeper_than_clang_sys_looks_are_not_searched() {
        assert_eq!(in_dirs(&["/usr/lib/a/b/c/libclang.so"]), None);
        assert_eq!(in_dirs(&["/opt/llvm/lib/libclang.so"]), None);
        assert_eq!(in_dirs(&["/usr/share/libclang.so"]), None);
    }

    #[test]
    fn the_highest_version_wins_then_the_earliest_directory() {
        // The real Debian 12 layout of libclang1-14 and libclang-14-dev.
        let fs = [
            "/usr/lib/llvm-14/lib/libclang-14.0.6.so",
            "/usr/lib/llvm-14/lib/libclang-14.so",
            "/usr/lib/llvm-14/lib/libclang-14.so.1",
            "/usr/lib/llvm-14/lib/libclang-cpp.so.14",
            "/usr/lib/llvm-14/lib/libclang.so",
            "/usr/lib/llvm-14/lib/libclang.so.1",
            "/usr/lib/x86_64-linux-gnu/libclang-14.so",
            "/usr/lib/x86_64-linux-gnu/libclang-14.so.1",
            "/usr/lib/x86_64-linux-gnu/libclang-14.so.13",
            "/usr/lib/x86_64-linux-gnu/libclang-14.so.14.0.6",
        ];
        // clang-sys reads `14.so.14.0` from the last name, `[14, 0, 14, 0]`, the highest.
        let best = PathBuf::from("/usr/lib/x86_64-linux-gnu/libclang-14.so.14.0.6");
        assert_eq!(in_dirs(&fs), Some(best));
        let a = PathBuf::from("/a/libclang-14.so.1");
        let b = PathBuf::from("/b/libclang-14.so.13");
        assert_eq!(pick(&[a.clone(), b.clone()]), Some(&a));
        assert_eq!(pick(&[b.clone(), a]), Some(&b));
    }

    #[test]
    fn llvm_config_and_library_paths_come_first() {
        let inputs = Inputs {
            llvm_prefix: Some("/opt/llvm".into()),
            library_path: vec!["/srv/lib".into()],
            ..Inputs::default()
        };
        let fs = [
            "/usr/lib/libclang.so",
            "/opt/llvm/lib/libclang.so",
            "/srv/lib/libclang.so",
        ];
        let s = search(&inputs, &FakeFs::new(&fs));
        let want: Vec<PathBuf> = ["/opt/llvm/lib/libclang.so", "/srv/lib/libclang.so"]
            .into_iter()
            .chain(["/usr/lib/libclang.so"])
            .map(PathBuf::from)
            .collect();
        assert_eq!(s.candidates, want);
    }

    #[test]
    fn libclang_path_is_the_only_place_when_set() {
        let fs = [
            "/usr/lib/libclang.so",
            "/opt/l/libclang.so.1",
            "/opt/l/libclang-cpp.so.14",
        ];
        let dir = Inputs {
            libclang_path: Some("/opt/l".into()),
            ..Inputs::default()
        };
        assert_eq!(found(&dir, &fs), Some("/opt/l/libclang.so.1".into()));
        let file = Inputs {
            libclang_path: Some("/opt/l/libclang.so.1".into()),
            ..Inputs::default()
        };
        assert_eq!(found(&file, &fs), Some("/opt/l/libclang.so.1".into()));
        let cpp = Inputs {
            libclang_path: Some("/opt/l/libclang-cpp.so.14".into()),
            ..Inputs::default()
        };
        assert_eq!(found(&cpp, &fs), None);
        let elsewhere = Inputs {
            libclang_path: Some("/opt/none".into()),
            ..Inputs::default()
        };
        assert_eq!(found(&elsewhere, &fs), None);
    }

    #[test]
    fn directory_globs_match_like_clang_sys() {
        assert!(dir_matches(
            "/usr/lib*/*",
            Path::new("/usr/lib/x86_64-linux-gnu")
        ));
        assert!(dir_matches(
            "/usr/lib*/*/*",
            Path::new("/usr/lib/llvm-14/lib")
        ));
        assert!(dir_matches("/usr/lib*", Path::new("/usr/LIB64")));
        assert!(!dir_matches(
            "/usr/lib*",
            Path::new("/lib/x86_64-linux-gnu")
        ));
        assert!(!dir_matches("/usr/lib*/*", Path::new("/usr/lib/a/b")));
        assert!(wildcard("libclang-*.so.*", "libclang-.so.", false));
        assert!(!wildcard("libclang-*.so", "libclang-14.so.1", false));
        assert!(wildcard("a*b*c", "aXbYbZc", false));
    }

    #[test]
    fn elf_headers() {
        let mut h = *b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0";
        assert_eq!(
            elf_header(&h),
            Ok(Elf {
                class: 2,
                shared: true
            })
        );
        h[16] = 1;
        assert_eq!(
            elf_header(&h),
            Ok(Elf {
                class: 2,
                shared: false
            })
        );
        assert!(elf_header(b"INPUT(libclang.so.1)").is_err());
        assert!(elf_header(b"\x7fELF\x02").is_err());
    }

    #[test]
    fn this_machine_is_searched_without_panicking() {
        let s = search(&Inputs::from_system(), &RealFs);
        assert!(
            s.candidates
                .iter()
                .all(|p| is_libclang_name(p.file_name().unwrap().to_str().unwrap()))
        );
    }
}
