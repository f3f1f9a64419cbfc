//! Where each of a list of distinct strings is (the ids a stream follows, its live books): an open-addressing
//! table of positions, so that finding or adding one costs O(1) on average. Small on purpose: a B-tree or
//! `HashMap` costs the wasm several KB.

/// Slots of positions in a list (linear probing, FNV-1a): 0 is empty, `n` is the list's item `n - 1`. The
/// list is read through `at` (the string of item `i`), so the table holds no copy of it.
#[derive(Debug, Default)]
pub struct Index {
    slots: Vec<u32>,
}

fn hash(key: &str) -> usize {
    let mut h: u32 = 0x811c_9dc5;
    for b in key.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h as usize
}

impl Index {
    /// The position of `key`, if the list has it.
    pub fn find<'a>(&self, key: &str, at: &dyn Fn(usize) -> Option<&'a str>) -> Option<usize> {
        let mask = self.slots.len().checked_sub(1)?;
        let mut i = hash(key) & mask;
        // The table is never more than half full: an empty slot ends every search.
        loop {
            let pos = (*self.slots.get(i)? as usize).checked_sub(1)?;
            if at(pos) == Some(key) {
                return Some(pos);
            }
            i = (i + 1) & mask;
        }
    }

    /// `key` was added to the list at `pos`, which is `len` long now.
    pub fn insert<'a>(&mut self, key: &str, pos: usize, len: usize, at: &dyn Fn(usize) -> Option<&'a str>) {
        if len * 2 > self.slots.len() {
            self.rebuild(len, at);
        } else {
            self.place(key, pos);
        }
    }

    /// Indexes the list (`len` long) afresh: after items were removed or moved.
    pub fn rebuild<'a>(&mut self, len: usize, at: &dyn Fn(usize) -> Option<&'a str>) {
        self.slots = vec![0; (len * 2).max(8).next_power_of_two()];
        for pos in 0..len {
            if let Some(key) = at(pos) {
                self.place(key, pos);
            }
        }
    }

    /// Removes from `list` the items at the positions `gone` marks, and indexes the rest afresh: O(n) however
    /// many go. `key` is an item's string.
    pub fn remove_marked<T>(&mut self, list: &mut Vec<T>, gone: &[bool], key: impl Fn(&T) -> &str) {
        if !gone.contains(&true) {
            return;
        }
        let mut at = 0;
        list.retain(|_| {
            at += 1;
            !gone.get(at - 1).copied().unwrap_or(false)
        });
        let list = &*list;
        self.rebuild(list.len(), &|at| list.get(at).map(&key));
    }

    fn place(&mut self, key: &str, pos: usize) {
        let mask = self.slots.len().wrapping_sub(1);
        let mut i = hash(key) & mask;
        while let Some(slot) = self.slots.get_mut(i) {
            if *slot == 0 {
                *slot = pos as u32 + 1;
                return;
            }
            i = (i + 1) & mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_what_the_list_holds() {
        let mut list: Vec<String> = Vec::new();
        let mut index = Index::default();
        for i in 0..1000 {
            list.push(format!("{}", 7 * i));
            index.insert(list.last().unwrap(), list.len() - 1, list.len(), &|p| list.get(p).map(String::as_str));
        }
        let at = |p: usize| list.get(p).map(String::as_str);
        // (key, where it is)
        for (key, pos) in [("0", Some(0)), ("7", Some(1)), ("6993", Some(999)), ("1", None), ("", None), ("7000", None)]
        {
            assert_eq!(index.find(key, &at), pos, "{key}");
        }
        assert!(index.slots.len() >= 2000);
        list.swap_remove(1);
        let at = |p: usize| list.get(p).map(String::as_str);
        index.rebuild(list.len(), &at);
        assert_eq!((index.find("7", &at), index.find("6993", &at)), (None, Some(1)));
        assert_eq!(Index::default().find("1", &at), None);
    }
}
