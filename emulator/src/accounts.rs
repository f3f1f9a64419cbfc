//! Who may call the authenticated routes: the catalog's made-up accounts, and the API keys created with a wallet
//! signature (`POST /auth/api-key`), which last until `POST /__admin/reset`.
//!
//! An account is known by its index: the catalog's accounts first, then the created keys, numbered on from the
//! catalog's and never reused (a reset does not hand an old index, still held by an open user socket, to a new key).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use subtle::ConstantTimeEq;

use crate::dataset::{Account, Catalog};
use crate::sync::lock;

pub struct Accounts {
    catalog: Arc<Catalog>,
    created: Mutex<Created>,
}

#[derive(Default)]
struct Created {
    by_index: BTreeMap<usize, KeyEntry>,
    by_key: HashMap<String, usize>,
    /// (lowercase address, nonce in decimal) → index.
    by_owner: HashMap<(String, String), usize>,
    /// Created keys so far, over the emulator's life (indices are never reused).
    count: usize,
}

struct KeyEntry {
    account: Account,
    nonce: String,
}

/// A created key, as the admin routes list it.
pub struct CreatedKey {
    pub index: usize,
    pub account: Account,
    pub nonce: String,
}

impl Accounts {
    pub fn new(catalog: Arc<Catalog>) -> Self {
        Self { catalog, created: Mutex::new(Created::default()) }
    }

    /// The account of an index (a catalog account or a created key).
    pub fn get(&self, index: usize) -> Option<Account> {
        if let Some(a) = self.catalog.accounts.get(index) {
            return Some(a.clone());
        }
        lock(&self.created).by_index.get(&index).map(|c| c.account.clone())
    }

    /// The account whose API key this is.
    pub fn by_key(&self, api_key: &str) -> Option<(usize, Account)> {
        if let Some(i) = self.catalog.account_by_key(api_key) {
            return Some((i, self.catalog.accounts[i].clone()));
        }
        let created = lock(&self.created);
        let i = *created.by_key.get(api_key)?;
        created.by_index.get(&i).map(|c| (i, c.account.clone()))
    }

    /// The account with exactly these three credentials (compared in constant time), for the user channel.
    pub fn by_credentials(&self, api_key: &str, secret: &str, passphrase: &str) -> Option<usize> {
        let same = |a: &Account| {
            bool::from(a.api_key.as_bytes().ct_eq(api_key.as_bytes()))
                & bool::from(a.secret.as_bytes().ct_eq(secret.as_bytes()))
                & bool::from(a.passphrase.as_bytes().ct_eq(passphrase.as_bytes()))
        };
        if let Some(i) = self.catalog.accounts.iter().position(same) {
            return Some(i);
        }
        lock(&self.created).by_index.iter().find(|(_, c)| same(&c.account)).map(|(i, _)| *i)
    }

    /// The key created for (address, nonce), if it was.
    pub fn created(&self, address: &str, nonce: &str) -> Option<Account> {
        let created = lock(&self.created);
        let i = created.by_owner.get(&(address.to_ascii_lowercase(), nonce.to_owned()))?;
        created.by_index.get(i).map(|c| c.account.clone())
    }

    /// Registers a new key for (address, nonce); `None` when that pair already has one.
    pub fn create(&self, nonce: &str, account: Account) -> Option<usize> {
        let mut created = lock(&self.created);
        let owner = (account.address.to_ascii_lowercase(), nonce.to_owned());
        if created.by_owner.contains_key(&owner) {
            return None;
        }
        let index = self.catalog.accounts.len() + created.count;
        created.count += 1;
        created.by_owner.insert(owner, index);
        created.by_key.insert(account.api_key.clone(), index);
        created.by_index.insert(index, KeyEntry { account, nonce: nonce.to_owned() });
        Some(index)
    }

    /// The created keys, oldest first.
    pub fn list_created(&self) -> Vec<CreatedKey> {
        lock(&self.created)
            .by_index
            .iter()
            .map(|(i, c)| CreatedKey { index: *i, account: c.account.clone(), nonce: c.nonce.clone() })
            .collect()
    }

    /// Forgets the created keys (the catalog's accounts stay).
    pub fn reset(&self) {
        let mut created = lock(&self.created);
        let count = created.count;
        *created = Created { count, ..Created::default() };
    }
}
