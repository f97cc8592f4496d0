//! The workspace's modules and every reference from one to another, read
//! with `syn` from each crate's `lib.rs` down through its `mod` items (so
//! `#[path]` files are the modules they are declared as): `use` trees with
//! their groups, `crate::`, `super::` and `self::` paths in code and in
//! macro arguments, each resolved to an absolute path and followed through
//! `pub use` re-exports to the module that defines it.
//!
//! The crates' modules share one root: the `cici` crate re-exports each
//! lower crate's modules under their own names, so `crate::syntax` in
//! `cici` and in `cici-syntax` is the one module, and a path that starts
//! with a workspace crate's name (`cici_syntax::span`) is read as `crate::`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// A module's path from the crate root (`["analysis", "classify"]`).
pub type ModPath = Vec<String>;

/// One reference from code in `from` to `to` (a known module).
#[derive(Clone, Debug)]
pub struct Edge {
    pub from: ModPath,
    pub to: ModPath,
    pub file: PathBuf,
    pub line: usize,
    /// Under `#[cfg(test)]`.
    pub test: bool,
    /// The path as written, for the report.
    pub written: String,
    /// The ancestor of `from` whose `pub use` the reference went through,
    /// if any.
    pub via: Option<ModPath>,
}

impl Edge {
    pub fn at(&self) -> String {
        let rel = self
            .file
            .strip_prefix(crate::it::common::root())
            .unwrap_or(&self.file);
        let test = if self.test { " (test)" } else { "" };
        format!("{}:{}: `{}`{test}", rel.display(), self.line, self.written)
    }
}

/// A reference before resolution: where it is and the segments written.
struct Raw {
    from: ModPath,
    segs: Vec<String>,
    line: usize,
    test: bool,
    file: PathBuf,
}

/// What a module declares: its item names and its re-exports.
#[derive(Default)]
struct Decls {
    items: BTreeSet<String>,
    /// Name to the absolute path a `use` gives it.
    reexports: BTreeMap<String, Vec<String>>,
    /// Absolute paths of `use ...::*`.
    globs: Vec<Vec<String>>,
}

/// The module tree and every reference in it.
#[derive(Default)]
pub struct Graph {
    pub modules: BTreeSet<ModPath>,
    /// Modules declared under `#[cfg(test)]`.
    pub test_modules: BTreeSet<ModPath>,
    decls: BTreeMap<ModPath, Decls>,
    /// The workspace's crates as code names them (`cici_syntax`).
    crates: BTreeSet<String>,
    raw: Vec<Raw>,
    pub edges: Vec<Edge>,
}

impl Graph {
    /// The crate whose root is `lib`.
    pub fn of_crate(lib: &Path) -> Graph {
        Graph::of_crates(&[("", lib)])
    }

    /// The crates of a workspace, each its name as code writes it and its
    /// root file, their modules under one root.
    pub fn of_crates(crates: &[(&str, &Path)]) -> Graph {
        let mut g = Graph {
            crates: crates.iter().map(|(name, _)| name.to_string()).collect(),
            ..Graph::default()
        };
        for (_, lib) in crates {
            g.read_file(lib, Vec::new(), lib.parent().unwrap().to_path_buf(), false);
        }
        g.resolve_all();
        g
    }

    /// Reads the module `path` from `file`; its `mod x;` children are
    /// looked for in `dir`.
    fn read_file(&mut self, file: &Path, path: ModPath, dir: PathBuf, test: bool) {
        let text = std::fs::read_to_string(file).unwrap();
        let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        self.modules.insert(path.clone());
        if test {
            self.test_modules.insert(path.clone());
        }
        let mut v = Visitor {
            g: self,
            file: file.to_path_buf(),
            module: path,
            dir,
            test,
            children: Vec::new(),
        };
        v.visit_file(&ast);
        let children = std::mem::take(&mut v.children);
        for (path, file, test) in children {
            let dir = child_dir(&file);
            self.read_file(&file, path, dir, test);
        }
    }

    fn decls(&mut self, m: &ModPath) -> &mut Decls {
        self.decls.entry(m.clone()).or_default()
    }

    /// The absolute path `segs`, written in `from`, means.
    fn absolute(&self, from: &ModPath, segs: &[String]) -> Option<Vec<String>> {
        let mut base: Vec<String>;
        let mut rest = segs;
        match segs.first()?.as_str() {
            first if first == "crate" || self.crates.contains(first) => {
                base = Vec::new();
                rest = &segs[1..];
            }
            "self" => {
                base = from.clone();
                rest = &segs[1..];
            }
            "super" => {
                base = from.clone();
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
            }
            first => {
                let mut child = from.clone();
                child.push(first.to_string());
                if !self.modules.contains(&child) {
                    return None;
                }
                base = from.clone();
            }
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// The longest known module that `path` starts with.
    fn module_of(&self, path: &[String]) -> ModPath {
        let mut n = path.len();
        while n > 0 && !self.modules.contains(&path[..n]) {
            n -= 1;
        }
        path[..n].to_vec()
    }

    /// `path` followed through re-exports to where its item is defined,
    /// with the module whose re-export was followed first.
    fn follow(&self, mut path: Vec<String>) -> (ModPath, Option<ModPath>) {
        let mut via = None;
        for _ in 0..16 {
            let m = self.module_of(&path);
            let Some(name) = path.get(m.len()).cloned() else {
                return (m, via);
            };
            let Some(d) = self.decls.get(&m) else {
                return (m, via);
            };
            let target = d.reexports.get(&name).cloned().or_else(|| {
                if d.items.contains(&name) {
                    return None;
                }
                d.globs.iter().find_map(|g| {
                    let gm = self.module_of(g);
                    let gd = self.decls.get(&gm)?;
                    (gm.len() == g.len()
                        && (gd.items.contains(&name) || gd.reexports.contains_key(&name)))
                    .then(|| [g.clone(), vec![name.clone()]].concat())
                })
            });
            let Some(mut target) = target else {
                return (m, via);
            };
            target.extend(path[m.len() + 1..].iter().cloned());
            via.get_or_insert(m);
            if target == path {
                return (self.module_of(&path), via);
            }
            path = target;
        }
        (self.module_of(&path), via)
    }

    fn resolve_all(&mut self) {
        let raw = std::mem::take(&mut self.raw);
        for r in raw {
            let Some(abs) = self.absolute(&r.from, &r.segs) else {
                continue;
            };
            let (to, via) = self.follow(abs);
            if to.is_empty() || to == r.from {
                continue;
            }
            self.edges.push(Edge {
                from: r.from,
                to,
                file: r.file,
                line: r.line,
                test: r.test,
                written: r.segs.join("::"),
                via,
            });
        }
    }
}

/// Where the `mod x;` items of `file` find their files.
fn child_dir(file: &Path) -> PathBuf {
    let parent = file.parent().unwrap().to_path_buf();
    match file.file_stem().unwrap().to_str().unwrap() {
        "mod" | "lib" | "main" => parent,
        stem => parent.join(stem),
    }
}

/// Whether `attrs` hold `#[cfg(...)]` naming `test` (not under `not`).
fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && matches!(&a.meta, syn::Meta::List(l) if names_test(l.tokens.clone()))
    })
}

fn names_test(tokens: TokenStream) -> bool {
    let mut after_not = false;
    for t in tokens {
        match t {
            TokenTree::Ident(i) if i == "test" => return true,
            TokenTree::Ident(i) => after_not = i == "not",
            TokenTree::Group(g) if !after_not && names_test(g.stream()) => return true,
            _ => after_not = false,
        }
    }
    false
}

fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

struct Visitor<'g> {
    g: &'g mut Graph,
    file: PathBuf,
    module: ModPath,
    dir: PathBuf,
    test: bool,
    children: Vec<(ModPath, PathBuf, bool)>,
}

impl Visitor<'_> {
    fn record(&mut self, segs: Vec<String>, line: usize) {
        self.g.raw.push(Raw {
            from: self.module.clone(),
            segs,
            line,
            test: self.test,
            file: self.file.clone(),
        });
    }

    /// Every leaf of a `use` tree under `prefix`, recorded, and the name
    /// it brings into the module noted: a child may name what its parent
    /// imports, public or not, as `super::Name`.
    fn use_tree(&mut self, tree: &syn::UseTree, prefix: &mut Vec<String>) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(&p.tree, prefix);
                prefix.pop();
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(t, prefix);
                }
            }
            syn::UseTree::Name(n) => self.use_leaf(prefix, &n.ident, &n.ident),
            syn::UseTree::Rename(r) => self.use_leaf(prefix, &r.ident, &r.rename),
            syn::UseTree::Glob(g) => {
                let line = g.star_token.spans[0].start().line;
                self.record(prefix.clone(), line);
                if let Some(abs) = self.g.absolute(&self.module, prefix) {
                    let m = self.module.clone();
                    self.g.decls(&m).globs.push(abs);
                }
            }
        }
    }

    fn use_leaf(&mut self, prefix: &[String], ident: &syn::Ident, name: &syn::Ident) {
        let mut segs = prefix.to_vec();
        let mut alias = name.to_string();
        if ident == "self" {
            if name == "self" {
                alias = prefix.last().cloned().unwrap_or_default();
            }
        } else {
            segs.push(ident.to_string());
        }
        let line = ident.span().start().line;
        // A child module is declared before it is imported from, so the
        // path resolves against the modules seen so far; what does not
        // resolve (a crate outside) is no module of ours.
        if let Some(abs) = self.g.absolute(&self.module, &segs) {
            let m = self.module.clone();
            self.g.decls(&m).reexports.insert(alias, abs);
        }
        self.record(segs, line);
    }

    fn define(&mut self, ident: &syn::Ident) {
        let m = self.module.clone();
        self.g.decls(&m).items.insert(ident.to_string());
    }

    /// Paths written in a macro's tokens: `crate`, `super` or `self`
    /// followed by `::`.
    fn macro_tokens(&mut self, tokens: TokenStream) {
        let tts: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < tts.len() {
            if let TokenTree::Group(g) = &tts[i] {
                self.macro_tokens(g.stream());
            }
            if let TokenTree::Ident(id) = &tts[i] {
                let prev_colon =
                    i > 0 && matches!(&tts[i - 1], TokenTree::Punct(p) if p.as_char() == ':');
                if !prev_colon && matches!(id.to_string().as_str(), "crate" | "super" | "self") {
                    let (segs, next) = macro_path(&tts, i);
                    if segs.len() > 1 {
                        self.record(segs, id.span().start().line);
                        i = next;
                        continue;
                    }
                }
            }
            i += 1;
        }
    }
}

/// The `a::b::c` path starting at token `i`, and the index after it.
fn macro_path(tts: &[TokenTree], mut i: usize) -> (Vec<String>, usize) {
    let mut segs = Vec::new();
    while let Some(TokenTree::Ident(id)) = tts.get(i) {
        segs.push(id.to_string());
        i += 1;
        let colons = matches!(tts.get(i), Some(TokenTree::Punct(p)) if p.as_char() == ':')
            && matches!(tts.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':');
        if !colons {
            break;
        }
        i += 2;
    }
    (segs, i)
}

/// The attributes of an item, for `#[cfg(test)]`.
fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    use syn::Item::*;
    match item {
        Const(i) => &i.attrs,
        Enum(i) => &i.attrs,
        ExternCrate(i) => &i.attrs,
        Fn(i) => &i.attrs,
        ForeignMod(i) => &i.attrs,
        Impl(i) => &i.attrs,
        Macro(i) => &i.attrs,
        Mod(i) => &i.attrs,
        Static(i) => &i.attrs,
        Struct(i) => &i.attrs,
        Trait(i) => &i.attrs,
        TraitAlias(i) => &i.attrs,
        Type(i) => &i.attrs,
        Union(i) => &i.attrs,
        Use(i) => &i.attrs,
        _ => &[],
    }
}

/// The name an item declares in its module's namespace, if any.
fn item_name(item: &syn::Item) -> Option<&syn::Ident> {
    use syn::Item::*;
    match item {
        Const(i) => Some(&i.ident),
        Enum(i) => Some(&i.ident),
        Fn(i) => Some(&i.sig.ident),
        Macro(i) => i.ident.as_ref(),
        Static(i) => Some(&i.ident),
        Struct(i) => Some(&i.ident),
        Trait(i) => Some(&i.ident),
        Type(i) => Some(&i.ident),
        Union(i) => Some(&i.ident),
        _ => None,
    }
}

impl<'ast> Visit<'ast> for Visitor<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let was = self.test;
        self.test |= is_test(item_attrs(item));
        if let Some(name) = item_name(item) {
            self.define(name);
        }
        syn::visit::visit_item(self, item);
        self.test = was;
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        let was = self.test;
        if let syn::ImplItem::Fn(f) = item {
            self.test |= is_test(&f.attrs);
        }
        syn::visit::visit_impl_item(self, item);
        self.test = was;
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        let mut path = self.module.clone();
        path.push(m.ident.to_string());
        match &m.content {
            Some((_, items)) => {
                self.g.modules.insert(path.clone());
                if self.test {
                    self.g.test_modules.insert(path.clone());
                }
                let outer = std::mem::replace(&mut self.module, path);
                let dir = self.dir.join(m.ident.to_string());
                let outer_dir = std::mem::replace(&mut self.dir, dir);
                for item in items {
                    self.visit_item(item);
                }
                self.module = outer;
                self.dir = outer_dir;
            }
            None => {
                let name = m.ident.to_string();
                let file = match path_attr(&m.attrs) {
                    Some(p) => self.file.parent().unwrap().join(p),
                    None if self.dir.join(format!("{name}.rs")).exists() => {
                        self.dir.join(format!("{name}.rs"))
                    }
                    None => self.dir.join(&name).join("mod.rs"),
                };
                self.g.modules.insert(path.clone());
                self.children.push((path, file, self.test));
            }
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        self.use_tree(&u.tree, &mut Vec::new());
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        if segs.len() > 1 && matches!(segs[0].as_str(), "crate" | "super" | "self") {
            let line = p.segments[0].ident.span().start().line;
            self.record(segs, line);
        }
        syn::visit::visit_path(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.visit_path(&m.path);
        self.macro_tokens(m.tokens.clone());
    }

    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}

    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}
}
