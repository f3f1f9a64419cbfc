//! Short import and export names for a wasm-bindgen output folder.
//!
//! wasm-bindgen names the module's imports `__wbg_<name>_<16 hex digits>` and its exports after the Rust
//! items (`orderbook_bestAskPrice`, `wasm_bindgen__convert__closures_____invoke__h<hash>`). Every name is
//! written twice, in the .wasm and in the glue, and the hashes do not compress. This step renames them to
//! one or two letters in the .wasm and rewrites the glue (and the raw-export declarations) to match:
//!
//! - the imports from the glue's own module (`./predictkit_bg.js`): the keys of the glue's import object
//!   (web, nodejs), or the functions that `predictkit_bg.js` exports for the wasm to import (bundler);
//! - every export but `memory`: the glue reaches them only as `wasm.<name>`. `init()` and `initSync()`
//!   answer the raw exports, which are no API (tests/golden leaves them out), `memory` excepted, which keeps
//!   its name;
//! - the import module names, for the targets whose glue hands the imports over in an object (web,
//!   nodejs): there they are keys. The bundler target keeps them, for a bundler resolves them as files.
//!
//! The JS snippets' exports keep their names: the wasm imports them by the names they export. Nothing but the
//! generated glue uses these names (the package entries use the JS classes and functions, whose names do not
//! change). Every rename is checked: a name the glue does not hold exactly where expected fails the build
//! rather than ship a module whose imports are missing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use wasmparser::{BinaryReader, Export, TypeRef};

use crate::Result;

/// The module wasm-bindgen's glue imports are named after, with `--out-name predictkit`.
const GLUE_MODULE: &str = "./predictkit_bg.js";
/// The export that keeps its name: `InitOutput.memory` is declared API.
const KEPT_EXPORT: &str = "memory";

/// One entry of the import section.
struct Import {
    module: String,
    name: String,
    /// The import's description (its kind and type), copied as it is.
    desc: Vec<u8>,
}

/// One entry of the export section.
struct ExportEntry {
    name: String,
    /// The export's kind and index, copied as they are.
    desc: Vec<u8>,
}

/// The sections of a module, and its import and export sections decoded.
struct Module {
    /// (section id, contents), in order.
    sections: Vec<(u8, Vec<u8>)>,
    imports: Vec<Import>,
    exports: Vec<ExportEntry>,
}

const IMPORT_SECTION: u8 = 2;
const EXPORT_SECTION: u8 = 7;

fn parse(wasm: &[u8]) -> Result<Module> {
    let err = |e: wasmparser::BinaryReaderError| format!("cannot parse the wasm: {e}");
    let header = wasm.get(..8).ok_or("the wasm is shorter than its header")?;
    if header != b"\0asm\x01\0\0\0" {
        return Err("not a core wasm module (version 1)".to_owned());
    }
    let mut reader = BinaryReader::new(&wasm[8..], 8);
    let mut module = Module { sections: Vec::new(), imports: Vec::new(), exports: Vec::new() };
    while !reader.eof() {
        let id = reader.read_u8().map_err(err)?;
        let size = reader.read_var_u32().map_err(err)? as usize;
        let offset = reader.original_position();
        let contents = reader.read_bytes(size).map_err(err)?;
        module.sections.push((id, contents.to_vec()));
        let mut section = BinaryReader::new(contents, offset);
        match id {
            IMPORT_SECTION => {
                for _ in 0..section.read_var_u32().map_err(err)? {
                    let module_name = section.read_string().map_err(err)?;
                    let name = section.read_string().map_err(err)?;
                    if name.is_empty() {
                        // The compact import encodings start so; wasm-bindgen writes none.
                        return Err(format!("an import of {module_name:?} has no name (compact imports?)"));
                    }
                    let start = section.current_position();
                    section.read::<TypeRef>().map_err(err)?;
                    let desc = contents[start..section.current_position()].to_vec();
                    module.imports.push(Import { module: module_name.to_owned(), name: name.to_owned(), desc });
                }
            }
            EXPORT_SECTION => {
                for _ in 0..section.read_var_u32().map_err(err)? {
                    let start = section.current_position();
                    let export = section.read::<Export>().map_err(err)?;
                    // The name's length and bytes, then the kind and index.
                    let name_end = start + leb_len(export.name.len()) + export.name.len();
                    let desc = contents[name_end..section.current_position()].to_vec();
                    module.exports.push(ExportEntry { name: export.name.to_owned(), desc });
                }
            }
            _ => continue,
        }
        // Every entry was read: the section held nothing else.
        if !section.eof() {
            return Err(format!("section {id} has bytes after its entries"));
        }
    }
    Ok(module)
}

fn leb_len(mut n: usize) -> usize {
    let mut len = 1;
    while n >= 0x80 {
        n >>= 7;
        len += 1;
    }
    len
}

fn write_leb(out: &mut Vec<u8>, mut n: usize) {
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn write_name(out: &mut Vec<u8>, name: &str) {
    write_leb(out, name.len());
    out.extend_from_slice(name.as_bytes());
}

fn encode(module: &Module) -> Vec<u8> {
    let mut out = b"\0asm\x01\0\0\0".to_vec();
    for (id, contents) in &module.sections {
        let mut rebuilt = Vec::new();
        let contents = match *id {
            IMPORT_SECTION => {
                write_leb(&mut rebuilt, module.imports.len());
                for import in &module.imports {
                    write_name(&mut rebuilt, &import.module);
                    write_name(&mut rebuilt, &import.name);
                    rebuilt.extend_from_slice(&import.desc);
                }
                &rebuilt
            }
            EXPORT_SECTION => {
                write_leb(&mut rebuilt, module.exports.len());
                for export in &module.exports {
                    write_name(&mut rebuilt, &export.name);
                    rebuilt.extend_from_slice(&export.desc);
                }
                &rebuilt
            }
            _ => contents,
        };
        out.push(*id);
        write_leb(&mut out, contents.len());
        out.extend_from_slice(contents);
    }
    out
}

/// Short names in order: `a`…`z`, `A`…`Z`, then two characters and more, leaving out JS keywords and
/// whatever `taken` holds.
struct ShortNames<'a> {
    next: usize,
    taken: &'a BTreeSet<String>,
}

impl Iterator for ShortNames<'_> {
    type Item = String;

    fn next(&mut self) -> Option<String> {
        const FIRST: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
        const REST: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        const KEYWORDS: [&str; 8] = ["do", "if", "in", "for", "let", "new", "try", "var"];
        loop {
            let mut n = self.next;
            self.next += 1;
            let mut name = vec![FIRST[n % FIRST.len()]];
            n /= FIRST.len();
            while n > 0 {
                n -= 1;
                name.push(REST[n % REST.len()]);
                n /= REST.len();
            }
            let name = String::from_utf8(name).ok()?;
            if !KEYWORDS.contains(&name.as_str()) && !self.taken.contains(&name) {
                return Some(name);
            }
        }
    }
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// The identifiers of a JS text (maximal runs of identifier characters not starting with a digit), with
/// their byte offsets. Strings and comments are not told apart: the names looked for here are wasm-bindgen's.
fn identifiers(text: &str) -> Vec<(usize, &str)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if is_ident(bytes[i]) {
            let start = i;
            while i < bytes.len() && is_ident(bytes[i]) {
                i += 1;
            }
            if !bytes[start].is_ascii_digit() {
                found.push((start, &text[start..i]));
            }
        } else {
            i += 1;
        }
    }
    found
}

/// `text` with the identifiers for which `rename` answers a new name replaced.
fn rewrite<'t>(text: &'t str, mut rename: impl FnMut(&'t str, usize, &'t str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for (at, ident) in identifiers(text) {
        if let Some(new) = rename(text, at, ident) {
            out.push_str(&text[copied..at]);
            out.push_str(&new);
            copied = at + ident.len();
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// Whether the identifier at `at` is a property read of the glue's `wasm` (the instance's exports).
fn after_wasm_dot(text: &str, at: usize) -> bool {
    let Some(before) = text[..at].strip_suffix("wasm.") else { return false };
    !before.as_bytes().last().is_some_and(|&b| is_ident(b) || b == b'.')
}

fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn write(path: &Path, text: &[u8]) -> Result<()> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Renames the imports and exports of `out`'s predictkit_bg.wasm (wasm-bindgen's output for `target`) and
/// rewrites its glue and declarations to match. Runs on wasm-bindgen's output as it is written, before the
/// glue is minified.
pub fn shorten(out: &Path, target: &str) -> Result<()> {
    let wasm_path = out.join("predictkit_bg.wasm");
    let wasm = std::fs::read(&wasm_path).map_err(|e| format!("cannot read {}: {e}", wasm_path.display()))?;
    let mut module = parse(&wasm)?;
    let bundler = target == "bundler";
    // The bundler target's glue imports come from predictkit_bg.js, as the functions it exports; the
    // other targets build one object of all the imports in predictkit.js.
    let glue_path = out.join(if bundler { "predictkit_bg.js" } else { "predictkit.js" });
    let glue = read(&glue_path)?;

    // In the bundler's predictkit_bg.js the new names are module-level functions: none may be a name the
    // module already uses (a parameter, a global it reads), or it would be shadowed or captured.
    let taken: BTreeSet<String> =
        if bundler { identifiers(&glue).into_iter().map(|(_, i)| i.to_owned()).collect() } else { BTreeSet::new() };
    let mut import_names = ShortNames { next: 0, taken: &taken };
    let mut imports: BTreeMap<String, String> = BTreeMap::new();
    for import in module.imports.iter_mut().filter(|i| i.module == GLUE_MODULE) {
        let new = import_names.next().ok_or("out of short names")?;
        imports.insert(std::mem::replace(&mut import.name, new.clone()), new);
    }
    if imports.is_empty() {
        return Err(format!("{}: no import from {GLUE_MODULE} (has --out-name changed?)", wasm_path.display()));
    }
    let none = BTreeSet::new();
    let mut export_names = ShortNames { next: 0, taken: &none };
    let mut exports: BTreeMap<String, String> = BTreeMap::new();
    for export in module.exports.iter_mut().filter(|e| e.name != KEPT_EXPORT) {
        let new = export_names.next().ok_or("out of short names")?;
        exports.insert(std::mem::replace(&mut export.name, new.clone()), new);
    }
    let mut modules: BTreeMap<String, String> = BTreeMap::new();
    if !bundler {
        let mut module_names = ShortNames { next: 0, taken: &none };
        for import in &mut module.imports {
            if !modules.contains_key(&import.module) {
                let new = module_names.next().ok_or("out of short names")?;
                modules.insert(import.module.clone(), new);
            }
            import.module.clone_from(&modules[&import.module]);
        }
    }

    // The glue's import names: each held once, where the glue defines it.
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let glue = rewrite(&glue, |text, at, ident| {
        let new = imports.get(ident)?;
        *seen.entry(ident).or_default() += 1;
        let defined =
            if bundler { text[..at].ends_with("export function ") } else { text[at + ident.len()..].starts_with(':') };
        defined.then(|| new.clone())
    });
    for old in imports.keys() {
        let count = seen.get(old.as_str()).copied().unwrap_or(0);
        if count != 1 {
            return Err(format!("{}: the import {old} is named {count} times, not once", glue_path.display()));
        }
    }
    let mut glue = glue;
    for (old, new) in &modules {
        let key = format!("{old:?}:");
        if !glue.contains(&key) {
            return Err(format!("{}: no import object key {key}", glue_path.display()));
        }
        glue = glue.replace(&key, &format!("{new:?}:"));
    }
    write(&glue_path, glue.as_bytes())?;

    // The exports, in every file of the glue.
    let mut files = vec![out.join("predictkit.js")];
    if bundler {
        files.push(out.join("predictkit_bg.js"));
    }
    let kept: BTreeSet<&str> = exports.values().map(String::as_str).chain([KEPT_EXPORT]).collect();
    for file in &files {
        let text = read(file)?;
        let text = rewrite(&text, |text, at, ident| exports.get(ident).filter(|_| after_wasm_dot(text, at)).cloned());
        // Whatever the glue reads from the instance must be one of its exports now.
        if let Some((_, missing)) =
            identifiers(&text).into_iter().find(|&(at, i)| after_wasm_dot(&text, at) && !kept.contains(i))
        {
            return Err(format!("{}: wasm.{missing} is not an export of the module", file.display()));
        }
        write(file, text.as_bytes())?;
    }

    // The declarations of the raw exports: `InitOutput` (web) and predictkit_bg.wasm.d.ts.
    let declarations = out.join("predictkit.d.ts");
    let text = read(&declarations)?;
    if let Some(start) = text.find("export interface InitOutput {") {
        let end = text[start..].find("\n}").map_or(text.len(), |e| start + e);
        let block = rewrite(&text[start..end], |text, at, ident| {
            exports.get(ident).filter(|_| text[..at].ends_with("readonly ")).cloned()
        });
        write(&declarations, format!("{}{block}{}", &text[..start], &text[end..]).as_bytes())?;
    }
    let raw = out.join("predictkit_bg.wasm.d.ts");
    if raw.exists() {
        let text = read(&raw)?;
        let text = rewrite(&text, |text, at, ident| {
            exports.get(ident).filter(|_| text[..at].ends_with("export const ")).cloned()
        });
        write(&raw, text.as_bytes())?;
    }

    write(&wasm_path, &encode(&module))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_skip_keywords_and_taken_names() {
        let taken: BTreeSet<String> = ["b".to_owned()].into();
        let names: Vec<String> = ShortNames { next: 0, taken: &taken }.take(200).collect();
        assert_eq!(&names[..3], ["a", "c", "d"]);
        assert!(names.contains(&"Z".to_owned()) && names.contains(&"aa".to_owned()));
        assert!(!names.iter().any(|n| ["b", "do", "if", "in"].contains(&n.as_str())));
        let unique: BTreeSet<&String> = names.iter().collect();
        assert_eq!(unique.len(), names.len());
    }

    #[test]
    fn exports_are_renamed_only_as_reads_of_wasm() {
        let exports: BTreeMap<String, String> = [("calculateFee".to_owned(), "a".to_owned())].into();
        let text = "export function calculateFee(x) { return wasm.calculateFee(x) + notwasm.calculateFee + wasm.calculateFeeX; }";
        let out = rewrite(text, |t, at, i| exports.get(i).filter(|_| after_wasm_dot(t, at)).cloned());
        assert_eq!(
            out,
            "export function calculateFee(x) { return wasm.a(x) + notwasm.calculateFee + wasm.calculateFeeX; }"
        );
    }

    #[test]
    fn a_module_round_trips_with_new_names() {
        // (module (import "./predictkit_bg.js" "__wbg_now_0123" (func)) (memory 1) (export "memory" (memory 0))
        //         (export "client_new" (func 0)))
        let mut wasm = b"\0asm\x01\0\0\0".to_vec();
        wasm.extend([1, 4, 1, 0x60, 0, 0]); // type section: one () -> ()
        let mut imports = vec![1];
        write_name(&mut imports, GLUE_MODULE);
        write_name(&mut imports, "__wbg_now_0123");
        imports.extend([0, 0]);
        wasm.push(IMPORT_SECTION);
        write_leb(&mut wasm, imports.len());
        wasm.extend(&imports);
        wasm.extend([5, 3, 1, 0, 1]); // memory section: min 1
        let mut exports = vec![2];
        write_name(&mut exports, "memory");
        exports.extend([2, 0]);
        write_name(&mut exports, "client_new");
        exports.extend([0, 0]);
        wasm.push(EXPORT_SECTION);
        write_leb(&mut wasm, exports.len());
        wasm.extend(&exports);

        let mut module = parse(&wasm).expect("parses");
        assert_eq!(encode(&module), wasm);
        assert_eq!(module.imports[0].name, "__wbg_now_0123");
        assert_eq!(module.exports[1].name, "client_new");
        module.imports[0].name = "a".to_owned();
        module.exports[1].name = "a".to_owned();
        let renamed = parse(&encode(&module)).expect("parses again");
        assert_eq!((renamed.imports[0].module.as_str(), renamed.imports[0].name.as_str()), (GLUE_MODULE, "a"));
        assert_eq!(renamed.imports[0].desc, [0, 0]);
        assert_eq!(renamed.exports.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(), ["memory", "a"]);
        assert_eq!(renamed.exports[0].desc, [2, 0]);
    }
}
