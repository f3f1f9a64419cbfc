//! The catalog: every record, generated from one seed, with its indexes and the books of its tokens.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::recorded::{self, RealBook};
use super::records::{
    Account, AccountTrade, ClosedPosition, Comment, Creator, Event, Fill, Market, Profile, SeedOrder, Series, Tag,
    Wallet,
};
use super::{generate, BASE, MARKET_ID_BASE};
use crate::books::{Book, BookSpec, BookStore};

/// Everything the service serves, for one seed.
pub struct Catalog {
    pub seed: u64,
    pub real_books: Vec<RealBook>,
    pub accounts: Vec<Account>,
    pub tags: Vec<Tag>,
    pub creators: Vec<Creator>,
    pub series: Vec<Series>,
    pub events: Vec<Event>,
    pub markets: Vec<Market>,
    pub sampling: Vec<usize>,
    pub profiles: Vec<Profile>,
    pub comments: Vec<Comment>,
    /// Top-level comments in id order.
    pub top_comments: Vec<usize>,
    pub wallets: Vec<Wallet>,
    pub fills: Vec<Fill>,
    pub closed_positions: Vec<ClosedPosition>,
    /// The accounts' made-up orders, as generated: the order store (`trading::ledger`) is seeded with them.
    pub orders: Vec<SeedOrder>,
    pub account_trades: Vec<AccountTrade>,
    books: BookStore,
    /// Rendered JSON of each event (GET /events), CLOB market and sampling market, built on first use.
    pub event_json: Vec<OnceLock<String>>,
    pub clob_json: Vec<OnceLock<String>>,
    pub sampling_json: Vec<OnceLock<String>>,
    token_index: HashMap<String, (usize, usize)>,
    condition_index: HashMap<String, usize>,
    market_slug_index: HashMap<String, usize>,
    comment_index: HashMap<u64, usize>,
}

impl Catalog {
    /// The catalog of `seed`, built once per process and shared.
    pub fn shared(seed: u64) -> Arc<Catalog> {
        static CACHE: OnceLock<Mutex<HashMap<u64, Arc<Catalog>>>> = OnceLock::new();
        let cache = CACHE.get_or_init(Default::default);
        let mut guard = cache.lock().unwrap_or_else(|e| e.into_inner());
        guard.entry(seed).or_insert_with(|| Arc::new(Catalog::new(seed))).clone()
    }

    pub fn new(seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // The demo account is drawn first so its credentials depend on the seed only.
        let accounts: Vec<Account> = (0..3).map(|_| generate::account(&mut rng)).collect();
        let real_books = recorded::books();
        let tags = generate::tags(&mut rng);
        let creators = generate::creators(&mut rng);
        let mut markets = generate::markets(&mut rng);
        let (events, series) = generate::events(&mut rng, &mut markets, &tags, &creators);
        let sampling = (0..markets.len()).filter(|&i| markets[i].sampling).collect();
        let profiles = generate::profiles(&mut rng, &markets);
        let (comments, top_comments) = generate::comments(&mut rng, &events, &series, &markets, &profiles);
        let wallets = generate::wallets(&mut rng, &accounts);
        let fills = generate::fills(&mut rng, &wallets, &markets);
        let closed_positions = generate::closed_positions(&mut rng, &wallets, &markets);
        let orders = generate::orders(&mut rng, &accounts, &markets);
        let account_trades = generate::account_trades(&mut rng, &accounts, &markets);
        let mut token_index = HashMap::with_capacity(markets.len() * 2);
        let mut condition_index = HashMap::with_capacity(markets.len());
        let mut market_slug_index = HashMap::with_capacity(markets.len());
        for (i, m) in markets.iter().enumerate() {
            token_index.insert(m.tokens[0].clone(), (i, 0));
            token_index.insert(m.tokens[1].clone(), (i, 1));
            condition_index.insert(m.condition_id.clone(), i);
            market_slug_index.insert(m.slug.clone(), i);
        }
        let comment_index = comments.iter().enumerate().map(|(i, c)| (c.id, i)).collect();
        let books = BookStore::new(markets.len() * 2);
        let cache = |n: usize| (0..n).map(|_| OnceLock::new()).collect::<Vec<_>>();
        Self {
            event_json: cache(events.len()),
            clob_json: cache(markets.len()),
            sampling_json: cache(markets.len()),
            seed,
            real_books,
            accounts,
            tags,
            creators,
            series,
            events,
            markets,
            sampling,
            profiles,
            comments,
            top_comments,
            wallets,
            fills,
            closed_positions,
            orders,
            account_trades,
            books,
            token_index,
            condition_index,
            market_slug_index,
            comment_index,
        }
    }

    /// The book of outcome `outcome` of market `market`, built on first use.
    pub fn book(&self, market: usize, outcome: usize) -> Arc<Book> {
        let slot = market * 2 + outcome;
        self.books.get_or_build(slot, || {
            let m = &self.markets[market];
            BookSpec {
                seed: self.seed ^ ((slot as u64 + 1) << 20),
                kind: m.book,
                tick: m.tick,
                price: m.prices[outcome],
                market: &m.condition_id,
                asset_id: &m.tokens[outcome],
                timestamp_ms: BASE * 1000 + (market as i64 * 7919 + outcome as i64 * 104_729) % 86_400_000,
                min_order_size: m.min_order_size,
                neg_risk: m.neg_risk,
            }
        })
    }

    pub fn demo(&self) -> &Account {
        &self.accounts[0]
    }

    pub fn real_book(&self, asset_id: &str) -> Option<&RealBook> {
        self.real_books.iter().find(|b| b.asset_id == asset_id)
    }

    /// (market index, outcome index) of a generated token.
    pub fn token(&self, token_id: &str) -> Option<(usize, usize)> {
        self.token_index.get(token_id).copied()
    }

    pub fn market_by_condition(&self, condition_id: &str) -> Option<usize> {
        self.condition_index.get(&condition_id.to_ascii_lowercase()).copied()
    }

    pub fn market_by_slug(&self, slug: &str) -> Option<usize> {
        self.market_slug_index.get(slug).copied()
    }

    pub fn market_by_id(&self, id: u64) -> Option<usize> {
        let i = id.checked_sub(MARKET_ID_BASE)? as usize;
        (i < self.markets.len()).then_some(i)
    }

    pub fn comment(&self, id: u64) -> Option<usize> {
        self.comment_index.get(&id).copied()
    }

    pub fn account_by_key(&self, api_key: &str) -> Option<usize> {
        self.accounts.iter().position(|a| a.api_key == api_key)
    }

    /// Whether `creator` (a creator wallet address or site identifier) created event `event`.
    pub fn creator_matches(&self, event: usize, creator: &str) -> bool {
        let c = &self.creators[self.events[event].creator];
        c.id.eq_ignore_ascii_case(creator) || c.site.eq_ignore_ascii_case(creator)
    }
}
