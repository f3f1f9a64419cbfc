//! The emulator's deterministic catalog: everything the service serves, generated from one seed, plus the real
//! recorded responses of tests/fixtures/real (provenance in its PROVENANCE.md) where they fit.
//!
//! The catalog is immutable once built; the only mutable data (cancellations) lives in the server state. Catalogs are
//! cached per seed so that many emulators in one process (tests) share one.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use base64::engine::general_purpose::URL_SAFE;
use base64::Engine;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::books::{BookKind, BookStore};

/// Real recorded GET /book responses (tests/fixtures/real, provenance in its PROVENANCE.md).
const REAL_BOOKS: [&str; 3] = [
    include_str!("../../tests/fixtures/real/clob-book-1.json"),
    include_str!("../../tests/fixtures/real/clob-book-2.json"),
    include_str!("../../tests/fixtures/real/clob-book-3.json"),
];
/// Real recorded CLOB markets: the first three CLOB markets of the catalog keep their ids, questions and tokens.
const REAL_CLOB_MARKETS: [&str; 3] = [
    include_str!("../../tests/fixtures/real/clob-market-1.json"),
    include_str!("../../tests/fixtures/real/clob-market-2.json"),
    include_str!("../../tests/fixtures/real/clob-market-3.json"),
];
/// Real recorded tags: the first tags of the catalog.
const REAL_TAGS: &str = include_str!("../../tests/fixtures/real/gamma-tags-1.json");

/// Deliberately shaped books, given to the outcome tokens of consecutive markets near the end of the list.
pub const SPECIAL_BOOKS: [BookKind; 7] = [
    BookKind::Levels(100_000, 100_000),
    BookKind::Levels(10_000, 10_000),
    BookKind::Levels(1_000, 1_000),
    BookKind::Levels(10, 10),
    BookKind::Empty,
    BookKind::Levels(25, 0),
    BookKind::Levels(0, 25),
];
/// Number of CLOB markets (each also a catalog market with two outcome tokens).
pub const CLOB_MARKETS: usize = 10_000;
pub const TAGS: usize = 300;
pub const SERIES: usize = 120;
pub const CREATORS: usize = 48;
pub const PROFILES: usize = 200;
pub const WALLETS: usize = 12;
pub const ACTIVITY_TRADES: usize = 6_000;
/// 2026-01-01T00:00:00Z: the catalog's reference time ("now" of the generated data).
pub const BASE: i64 = 1_767_225_600;
pub const USDC: &str = "0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174";

/// One recorded order book, kept as the exact JSON text it is served as.
pub struct RealBook {
    pub asset_id: String,
    pub json: String,
    /// Best bid and ask in millionths, for /price and /midpoint.
    pub best_bid: Option<u64>,
    pub best_ask: Option<u64>,
}

/// An account that may call the authenticated routes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    pub address: String,
    pub api_key: String,
    pub secret: String,
    pub passphrase: String,
}

pub struct Tag {
    pub id: u64,
    pub label: String,
    pub slug: String,
    pub created: String,
    pub updated: String,
}

pub struct Creator {
    pub id: String,
    pub site: String,
    pub name: String,
    pub handle: String,
    pub created: i64,
    pub updated: i64,
}

pub struct Series {
    pub id: u64,
    pub ticker: String,
    pub slug: String,
    pub title: String,
    pub series_type: &'static str,
    pub recurrence: &'static str,
    pub active: bool,
    pub closed: bool,
    pub archived: bool,
    pub created: i64,
    pub updated: i64,
    pub events: Vec<usize>,
}

pub struct Event {
    pub id: u64,
    pub ticker: String,
    pub slug: String,
    pub title: String,
    pub description: String,
    pub start: i64,
    pub end: i64,
    pub created: i64,
    pub updated: i64,
    pub active: bool,
    pub closed: bool,
    pub archived: bool,
    pub tags: Vec<usize>,
    pub markets: Vec<usize>,
    pub series: Option<usize>,
    pub creator: usize,
    pub volume: f64,
}

pub struct Market {
    pub id: u64,
    pub question: String,
    pub slug: String,
    pub description: String,
    pub condition_id: String,
    pub mirror_condition_id: String,
    pub question_id: String,
    pub outcomes: [String; 2],
    pub tokens: [String; 2],
    pub mirror_tokens: [String; 2],
    /// Outcome prices in millionths.
    pub prices: [u64; 2],
    pub winner: Option<usize>,
    pub event: usize,
    pub start: i64,
    pub end: i64,
    pub created: i64,
    pub updated: i64,
    pub active: bool,
    pub closed: bool,
    pub archived: bool,
    pub accepting_orders: bool,
    pub neg_risk: bool,
    pub neg_risk_market_id: String,
    pub neg_risk_request_id: String,
    /// Tick size in millionths (10000 = 0.01).
    pub tick: u64,
    pub min_order_size: u64,
    pub sampling: bool,
    pub rewards_rate: f64,
    pub rewards_min_size: f64,
    pub rewards_max_spread: f64,
    pub seconds_delay: u64,
    pub game_start: Option<i64>,
    pub fee_bps: u64,
    pub book: BookKind,
}

pub struct Profile {
    pub name: String,
    pub pseudonym: String,
    pub bio: String,
    pub proxy_wallet: String,
    pub base_address: String,
    pub is_mod: bool,
    pub is_creator: bool,
    pub positions: Vec<(String, String)>,
}

pub struct Comment {
    pub id: u64,
    pub body: String,
    pub parent_type: &'static str,
    pub parent_id: u64,
    pub parent_comment: Option<usize>,
    pub profile: usize,
    pub reply_profile: usize,
    pub created: i64,
    pub updated: i64,
    pub reactions: Vec<usize>,
    pub report_count: u64,
    pub replies: Vec<usize>,
}

/// A public cached fill (GET /trades).
pub struct Fill {
    pub wallet: usize,
    pub market: usize,
    pub outcome: usize,
    pub buy: bool,
    pub taker: bool,
    /// Size in hundredths of a share; price in thousandths.
    pub size: u64,
    pub price: u64,
    pub timestamp: i64,
    pub tx: String,
}

pub struct ClosedPosition {
    pub wallet: usize,
    pub market: usize,
    pub outcome: usize,
    pub size: f64,
    pub avg_price: f64,
    pub total_bought: f64,
    pub realized_pnl: f64,
    pub cur_price: f64,
    pub timestamp: i64,
}

pub struct Wallet {
    pub address: String,
    pub name: String,
    pub pseudonym: String,
    pub bio: String,
}

/// An order of an account (GET /data/orders).
pub struct Order {
    pub id: String,
    pub account: usize,
    pub market: usize,
    pub outcome: usize,
    pub buy: bool,
    /// Price in millionths, sizes in whole shares.
    pub price: u64,
    pub original_size: u64,
    pub size_matched: u64,
    pub order_type: &'static str,
    pub expiration: i64,
    pub created: i64,
}

/// A fill of an account (GET /data/trades).
pub struct AccountTrade {
    pub id: String,
    pub account: usize,
    pub taker_order_id: String,
    pub market: usize,
    pub outcome: usize,
    pub buy: bool,
    pub size: u64,
    pub price: u64,
    pub fee_bps: u64,
    pub time: i64,
    pub taker: bool,
    pub tx: String,
    pub maker_orders: Vec<(String, String, u64, u64, usize, bool)>,
}

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
    pub orders: Vec<Order>,
    pub account_trades: Vec<AccountTrade>,
    pub books: BookStore,
    /// Rendered JSON of each event (GET /events), CLOB market and sampling market, built on first use.
    pub event_json: Vec<OnceLock<String>>,
    pub clob_json: Vec<OnceLock<String>>,
    pub sampling_json: Vec<OnceLock<String>>,
    token_index: HashMap<String, (usize, usize)>,
    condition_index: HashMap<String, usize>,
    market_slug_index: HashMap<String, usize>,
    comment_index: HashMap<u64, usize>,
    order_index: HashMap<String, usize>,
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
        let accounts: Vec<Account> = (0..3).map(|_| Account::generate(&mut rng)).collect();
        let real_books = REAL_BOOKS.iter().map(|text| RealBook::parse(text)).collect();
        let tags = gen_tags(&mut rng);
        let creators = gen_creators(&mut rng);
        let mut markets = gen_markets(&mut rng);
        let (events, series) = gen_events(&mut rng, &mut markets, &tags, &creators);
        let sampling = (0..markets.len()).filter(|&i| markets[i].sampling).collect();
        let profiles = gen_profiles(&mut rng, &markets);
        let (comments, top_comments) = gen_comments(&mut rng, &events, &series, &markets, &profiles);
        let wallets = gen_wallets(&mut rng, &accounts);
        let fills = gen_fills(&mut rng, &wallets, &markets);
        let closed_positions = gen_closed_positions(&mut rng, &wallets, &markets);
        let orders = gen_orders(&mut rng, &accounts, &markets);
        let account_trades = gen_account_trades(&mut rng, &accounts, &markets);
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
        let order_index = orders.iter().enumerate().map(|(i, o)| (o.id.clone(), i)).collect();
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
            order_index,
        }
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

    pub fn order(&self, id: &str) -> Option<usize> {
        self.order_index.get(id).copied()
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

pub const MARKET_ID_BASE: u64 = 500_000;
pub const EVENT_ID_BASE: u64 = 20_000;
pub const SERIES_ID_BASE: u64 = 10_000;

impl RealBook {
    fn parse(text: &str) -> Self {
        let value: serde_json::Value = serde_json::from_str(text).expect("recorded books are valid JSON");
        let asset_id = value["asset_id"].as_str().expect("recorded books have an asset_id").to_owned();
        let best = |side: &str, highest: bool| {
            let prices = value[side]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|l| l["price"].as_str())
                .filter_map(parse_micro);
            if highest {
                prices.max()
            } else {
                prices.min()
            }
        };
        let (best_bid, best_ask) = (best("bids", true), best("asks", false));
        // Served compact, as the service does, keeping the recorded key order and strings.
        Self { asset_id, json: compact(text), best_bid, best_ask }
    }
}

/// JSON text without the whitespace between tokens (strings untouched).
pub fn compact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    for ch in text.chars() {
        if in_string {
            out.push(ch);
            if escaped {
                escaped = false;
            } else if ch == '\\' {
                escaped = true;
            } else if ch == '"' {
                in_string = false;
            }
        } else if ch == '"' {
            in_string = true;
            out.push(ch);
        } else if !ch.is_whitespace() {
            out.push(ch);
        }
    }
    out
}

impl Account {
    fn generate(rng: &mut ChaCha8Rng) -> Self {
        let address = format!("0x{}", hex(&rng.random::<[u8; 20]>()));
        let u = rng.random::<[u8; 16]>();
        let h = hex(&u);
        let api_key = format!("{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32]);
        let secret = URL_SAFE.encode(rng.random::<[u8; 32]>());
        let passphrase = hex(&rng.random::<[u8; 32]>());
        Self { address, api_key, secret, passphrase }
    }
}

pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

pub fn hash32(rng: &mut ChaCha8Rng) -> String {
    format!("0x{}", hex(&rng.random::<[u8; 32]>()))
}

fn address(rng: &mut ChaCha8Rng) -> String {
    format!("0x{}", hex(&rng.random::<[u8; 20]>()))
}

/// A 70–78 digit decimal token id.
fn token_id(rng: &mut ChaCha8Rng) -> String {
    let len = rng.random_range(70..=78);
    let mut s = String::with_capacity(len);
    s.push(char::from(b'1' + rng.random_range(0..9u8)));
    while s.len() < len {
        let chunk = format!("{:018}", rng.random_range(0..1_000_000_000_000_000_000u64));
        let take = (len - s.len()).min(18);
        s.push_str(&chunk[..take]);
    }
    s
}

/// Parses a decimal price such as "0.52" into millionths.
pub fn parse_micro(text: &str) -> Option<u64> {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    if int.is_empty() && frac.is_empty()
        || frac.len() > 6
        || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let int: u64 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let mut f: u64 = 0;
    for i in 0..6 {
        f = f * 10 + frac.as_bytes().get(i).map_or(0, |b| u64::from(b - b'0'));
    }
    int.checked_mul(1_000_000)?.checked_add(f)
}

/// Formats `value / 10^scale` as a minimal decimal string ("0.52", "5", "0.0015").
pub fn decimal(value: u64, scale: u32) -> String {
    let div = 10u64.pow(scale);
    let (int, frac) = (value / div, value % div);
    if frac == 0 {
        return int.to_string();
    }
    let mut f = format!("{frac:0width$}", width = scale as usize);
    while f.ends_with('0') {
        f.pop();
    }
    format!("{int}.{f}")
}

/// Millionths as a JSON number (0.52).
pub fn micro_f64(value: u64) -> f64 {
    decimal(value, 6).parse().unwrap_or(0.0)
}

/// ISO 8601 date-time in UTC of epoch seconds.
pub fn iso(ts: i64) -> String {
    let days = ts.div_euclid(86_400);
    let secs = ts.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", secs / 3600, secs / 60 % 60, secs % 60)
}

/// ISO 8601 with microseconds, as the catalog's `createdAt` fields are recorded.
pub fn iso_micros(ts: i64, micros: u32) -> String {
    let base = iso(ts);
    format!("{}.{:06}Z", &base[..base.len() - 1], micros % 1_000_000)
}

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

pub fn slugify(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

const SUBJECTS: [&str; 40] = [
    "Bitcoin",
    "Ethereum",
    "Solana",
    "the Fed",
    "the ECB",
    "NASA",
    "SpaceX",
    "Apple",
    "Nvidia",
    "Tesla",
    "OpenAI",
    "the Lakers",
    "the Yankees",
    "Real Madrid",
    "Arsenal",
    "the Chiefs",
    "Brazil",
    "Japan",
    "India",
    "Germany",
    "France",
    "Canada",
    "Mexico",
    "Argentina",
    "Kenya",
    "Norway",
    "the UN",
    "the WHO",
    "Netflix",
    "Disney",
    "Boeing",
    "Airbus",
    "Toyota",
    "Samsung",
    "Google",
    "Amazon",
    "Microsoft",
    "Meta",
    "Spotify",
    "Nintendo",
];
const THEMES: [(&str, &str); 12] = [
    ("price targets", "reach a new all-time high"),
    ("earnings", "beat earnings expectations"),
    ("leadership", "announce a new chief executive"),
    ("championship", "win the championship"),
    ("rates", "cut rates"),
    ("launch", "complete the planned launch"),
    ("election", "hold a snap election"),
    ("merger", "announce a merger"),
    ("record", "set a new record"),
    ("policy", "pass the proposed bill"),
    ("partnership", "sign the partnership"),
    ("product", "ship the new product"),
];
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const WORDS: [&str; 24] = [
    "politics",
    "crypto",
    "sports",
    "science",
    "economy",
    "markets",
    "tech",
    "ai",
    "space",
    "climate",
    "football",
    "basketball",
    "baseball",
    "tennis",
    "elections",
    "culture",
    "music",
    "film",
    "health",
    "energy",
    "trade",
    "law",
    "weather",
    "business",
];

fn gen_tags(rng: &mut ChaCha8Rng) -> Vec<Tag> {
    let real: Vec<serde_json::Value> = serde_json::from_str(REAL_TAGS).expect("recorded tags are valid JSON");
    let mut tags: Vec<Tag> = real
        .iter()
        .map(|t| Tag {
            id: t["id"].as_str().and_then(|s| s.parse().ok()).unwrap_or(0),
            label: t["label"].as_str().unwrap_or_default().to_owned(),
            slug: t["slug"].as_str().unwrap_or_default().to_owned(),
            created: t["createdAt"].as_str().unwrap_or_default().to_owned(),
            updated: t["updatedAt"].as_str().unwrap_or_default().to_owned(),
        })
        .collect();
    let mut n = 0;
    while tags.len() < TAGS {
        let label = if n < WORDS.len() {
            let w = WORDS[n];
            format!("{}{}", w[..1].to_uppercase(), &w[1..])
        } else {
            format!("{} {}", SUBJECTS[n % SUBJECTS.len()], WORDS[(n / SUBJECTS.len() + n) % WORDS.len()])
        };
        n += 1;
        let slug = slugify(&label);
        if tags.iter().any(|t| t.slug == slug) {
            continue;
        }
        let created = BASE - rng.random_range(30..900) * 86_400;
        tags.push(Tag {
            id: 200_000 + tags.len() as u64,
            label,
            slug,
            created: iso_micros(created, rng.random_range(0..1_000_000)),
            updated: iso_micros(created + rng.random_range(0..20) * 86_400, rng.random_range(0..1_000_000)),
        });
    }
    tags
}

fn gen_creators(rng: &mut ChaCha8Rng) -> Vec<Creator> {
    (0..CREATORS)
        .map(|i| {
            let name = format!("{} Markets", SUBJECTS[i % SUBJECTS.len()].trim_start_matches("the ").replace(' ', ""));
            let created = BASE - rng.random_range(100..700) * 86_400;
            Creator {
                id: address(rng),
                site: format!("site{}.example", i + 1),
                handle: format!("{}{}", slugify(&name).replace('-', ""), i + 1),
                name,
                created,
                updated: created + rng.random_range(0..90) * 86_400,
            }
        })
        .collect()
}

fn gen_markets(rng: &mut ChaCha8Rng) -> Vec<Market> {
    let mut markets = Vec::with_capacity(CLOB_MARKETS);
    for i in 0..CLOB_MARKETS {
        let subject = SUBJECTS[rng.random_range(0..SUBJECTS.len())];
        let theme = THEMES[rng.random_range(0..THEMES.len())];
        let month = MONTHS[rng.random_range(0..12)];
        let year = 2026 + rng.random_range(0..2);
        let question = format!("Will {subject} {} by {month} {year}? #{}", theme.1, i + 1);
        let start = BASE - rng.random_range(1..400) * 86_400;
        let end = BASE + rng.random_range(-120..500) * 86_400;
        let archived = rng.random_bool(0.03);
        let closed = archived || end < BASE && rng.random_bool(0.8) || rng.random_bool(0.05);
        let yes = if closed {
            if rng.random_bool(0.5) {
                1_000_000
            } else {
                0
            }
        } else {
            rng.random_range(2..99u64) * 10_000
        };
        let tick = if rng.random_bool(0.3) { 1_000 } else { 10_000 };
        let neg_risk = rng.random_bool(0.3);
        let sampling = !closed && rng.random_bool(0.4);
        let levels = if rng.random_bool(0.05) { 0 } else { rng.random_range(1..=40) };
        let mut m = Market {
            id: MARKET_ID_BASE + i as u64,
            slug: slugify(&question),
            description: format!(
                "This market will resolve to \"Yes\" if {subject} {} by {month} {year}, 11:59 PM ET. Otherwise, this market \
                 will resolve to \"No\". The resolution source is official public information.",
                theme.1
            ),
            question,
            condition_id: hash32(rng),
            mirror_condition_id: hash32(rng),
            question_id: hash32(rng),
            outcomes: ["Yes".into(), "No".into()],
            tokens: [token_id(rng), token_id(rng)],
            mirror_tokens: [token_id(rng), token_id(rng)],
            prices: [yes, 1_000_000 - yes],
            winner: closed.then_some(if yes == 1_000_000 { 0 } else { 1 }),
            event: 0,
            start,
            end,
            created: start - rng.random_range(0..5) * 86_400,
            updated: BASE - rng.random_range(0..30) * 86_400,
            active: !archived,
            closed,
            archived,
            accepting_orders: !closed,
            neg_risk,
            neg_risk_market_id: if neg_risk { hash32(rng) } else { String::new() },
            neg_risk_request_id: if neg_risk { hash32(rng) } else { String::new() },
            tick,
            min_order_size: if rng.random_bool(0.2) { 15 } else { 5 },
            sampling,
            rewards_rate: if sampling { f64::from(rng.random_range(1..40u32) * 25) } else { 0.0 },
            rewards_min_size: if sampling { f64::from(rng.random_range(1..5u32) * 50) } else { 0.0 },
            rewards_max_spread: if sampling { f64::from(rng.random_range(10..50u32)) / 10.0 } else { 0.0 },
            seconds_delay: if rng.random_bool(0.1) { 3 } else { 0 },
            game_start: rng.random_bool(0.15).then(|| end - 3 * 3600),
            fee_bps: if rng.random_bool(0.5) { 0 } else { 1000 },
            book: if closed { BookKind::Empty } else { BookKind::Random(levels, rng.random_range(0..=40)) },
        };
        if let Some(text) = REAL_CLOB_MARKETS.get(i) {
            apply_real(&mut m, text);
        }
        markets.push(m);
    }
    // A few deliberately shaped books (documented in the README and listed by GET /__admin/info).
    // They sit on the last page of GET /markets, so that clients walking the first pages meet ordinary books.
    let last = CLOB_MARKETS - SPECIAL_BOOKS.len() - 1;
    for (k, kind) in SPECIAL_BOOKS.into_iter().enumerate() {
        let i = last + k;
        let m = &mut markets[i];
        m.book = kind;
        m.closed = false;
        m.archived = false;
        m.active = true;
        m.accepting_orders = true;
        m.winner = None;
        m.prices = [500_000, 500_000];
        match kind {
            BookKind::Levels(n, _) if n >= 10_000 => m.tick = 1,
            BookKind::Levels(n, _) if n >= 100 => m.tick = 100,
            _ => {}
        }
    }
    markets
}

/// Takes ids, question and tokens of a recorded CLOB market.
fn apply_real(m: &mut Market, text: &str) {
    let v: serde_json::Value = serde_json::from_str(text).expect("recorded markets are valid JSON");
    let s = |k: &str| v[k].as_str().unwrap_or_default().to_owned();
    m.condition_id = s("condition_id");
    m.question_id = s("question_id");
    m.question = s("question");
    m.description = s("description");
    m.slug = s("market_slug");
    m.neg_risk = v["neg_risk"].as_bool().unwrap_or(false);
    m.neg_risk_market_id = s("neg_risk_market_id");
    m.neg_risk_request_id = s("neg_risk_request_id");
    m.tick = (v["minimum_tick_size"].as_f64().unwrap_or(0.01) * 1e6).round() as u64;
    m.min_order_size = v["minimum_order_size"].as_u64().unwrap_or(5);
    m.closed = v["closed"].as_bool().unwrap_or(false);
    m.accepting_orders = v["accepting_orders"].as_bool().unwrap_or(false);
    m.active = v["active"].as_bool().unwrap_or(true);
    m.archived = false;
    if let Some(tokens) = v["tokens"].as_array() {
        for (k, t) in tokens.iter().take(2).enumerate() {
            m.tokens[k] = t["token_id"].as_str().unwrap_or_default().to_owned();
            m.outcomes[k] = t["outcome"].as_str().unwrap_or_default().to_owned();
            m.prices[k] = (t["price"].as_f64().unwrap_or(0.0) * 1e6).round() as u64;
            if t["winner"].as_bool() == Some(true) {
                m.winner = Some(k);
            }
        }
    }
    if !m.closed {
        m.winner = None;
        m.book = BookKind::Random(12, 12);
    } else {
        m.book = BookKind::Empty;
    }
    m.sampling = !m.closed;
}

fn gen_events(
    rng: &mut ChaCha8Rng,
    markets: &mut [Market],
    tags: &[Tag],
    creators: &[Creator],
) -> (Vec<Event>, Vec<Series>) {
    let mut events = Vec::new();
    let mut next = 0;
    while next < markets.len() {
        let n = rng.random_range(1..=8).min(markets.len() - next);
        let idx = events.len();
        let ids: Vec<usize> = (next..next + n).collect();
        next += n;
        let first = &markets[ids[0]];
        let subject = first.question.trim_start_matches("Will ").split(' ').next().unwrap_or("Event").to_owned();
        let theme = THEMES[idx % THEMES.len()].0;
        let title = format!("{subject} {theme} {} #{}", 2026 + idx % 2, idx + 1);
        let slug = slugify(&title);
        let mut event_tags: Vec<usize> =
            (0..rng.random_range(1..=4)).map(|_| rng.random_range(0..tags.len())).collect();
        event_tags.sort_unstable();
        event_tags.dedup();
        let start = ids.iter().map(|&i| markets[i].start).min().unwrap_or(BASE);
        let end = ids.iter().map(|&i| markets[i].end).max().unwrap_or(BASE);
        let closed = ids.iter().all(|&i| markets[i].closed);
        let archived = ids.iter().all(|&i| markets[i].archived);
        for &i in &ids {
            markets[i].event = idx;
        }
        events.push(Event {
            id: EVENT_ID_BASE + idx as u64,
            ticker: slug.clone(),
            slug,
            description: format!("Markets about {subject} and its {theme}."),
            title,
            start,
            end,
            created: start - 86_400,
            updated: BASE - rng.random_range(0..30) * 86_400,
            active: !archived,
            closed,
            archived,
            tags: event_tags,
            markets: ids,
            series: None,
            creator: rng.random_range(0..creators.len()),
            volume: f64::from(rng.random_range(0..10_000_000u32)) / 10.0,
        });
    }
    let recurrences = ["daily", "weekly", "monthly", "annual", "5m"];
    let mut series: Vec<Series> = (0..SERIES)
        .map(|i| {
            let title = format!("{} {} series", SUBJECTS[i % SUBJECTS.len()], recurrences[i % recurrences.len()]);
            let created = BASE - rng.random_range(100..600) * 86_400;
            let closed = rng.random_bool(0.1);
            Series {
                id: SERIES_ID_BASE + i as u64,
                ticker: format!("{}-{}", slugify(&title), i + 1),
                slug: format!("{}-{}", slugify(&title), i + 1),
                title,
                series_type: "single",
                recurrence: recurrences[i % recurrences.len()],
                active: !closed,
                closed,
                archived: false,
                created,
                updated: created + rng.random_range(0..90) * 86_400,
                events: Vec::new(),
            }
        })
        .collect();
    for (i, e) in events.iter_mut().enumerate() {
        if i % 5 < 2 {
            let s = rng.random_range(0..SERIES);
            e.series = Some(s);
            series[s].events.push(i);
        }
    }
    (events, series)
}

fn gen_profiles(rng: &mut ChaCha8Rng, markets: &[Market]) -> Vec<Profile> {
    (0..PROFILES)
        .map(|i| {
            let positions = (0..rng.random_range(0..3))
                .map(|_| {
                    let m = &markets[rng.random_range(0..markets.len())];
                    (m.tokens[rng.random_range(0..2)].clone(), rng.random_range(1..5_000_000_000u64).to_string())
                })
                .collect();
            Profile {
                name: format!("{}{}", WORDS[i % WORDS.len()], i + 1),
                pseudonym: format!("{}-{}", MONTHS[i % 12], SUBJECTS[i % SUBJECTS.len()].replace(' ', "")),
                bio: if i % 3 == 0 {
                    String::new()
                } else {
                    format!("Trader interested in {}.", WORDS[(i * 7) % WORDS.len()])
                },
                proxy_wallet: address(rng),
                base_address: address(rng),
                is_mod: i % 50 == 0,
                is_creator: i % 40 == 1,
                positions,
            }
        })
        .collect()
}

fn gen_comments(
    rng: &mut ChaCha8Rng,
    events: &[Event],
    series: &[Series],
    markets: &[Market],
    profiles: &[Profile],
) -> (Vec<Comment>, Vec<usize>) {
    let mut comments: Vec<Comment> = Vec::new();
    let mut top = Vec::new();
    let mut scopes: Vec<(&'static str, u64, usize)> = Vec::new();
    for e in events.iter().take(600) {
        scopes.push(("Event", e.id, rng.random_range(0..=6)));
    }
    for s in series.iter().take(40) {
        scopes.push(("Series", s.id, rng.random_range(0..=4)));
    }
    for m in markets.iter().take(400) {
        scopes.push(("market", m.id, rng.random_range(0..=3)));
    }
    // The first event always has enough comments to page through.
    scopes[0].2 = 45;
    let mut time = BASE - 200 * 86_400;
    for (kind, parent, n) in scopes {
        for k in 0..n {
            time += rng.random_range(60..3_600);
            let idx = comments.len();
            let profile = rng.random_range(0..profiles.len());
            comments.push(Comment {
                id: 3_000_000 + idx as u64,
                body: format!(
                    "Comment {} on {kind} {parent}: {} looks {}.",
                    k + 1,
                    WORDS[idx % WORDS.len()],
                    if idx.is_multiple_of(2) { "likely" } else { "unlikely" }
                ),
                parent_type: kind,
                parent_id: parent,
                parent_comment: None,
                profile,
                reply_profile: profile,
                created: time,
                updated: time + rng.random_range(0..120),
                reactions: (0..rng.random_range(0..3)).map(|_| rng.random_range(0..profiles.len())).collect(),
                report_count: u64::from(rng.random_bool(0.05)),
                replies: Vec::new(),
            });
            top.push(idx);
            let replies = if idx == 0 {
                30
            } else if rng.random_bool(0.4) {
                rng.random_range(1..=4)
            } else {
                0
            };
            for _ in 0..replies {
                time += rng.random_range(30..600);
                let r = comments.len();
                let p = rng.random_range(0..profiles.len());
                comments.push(Comment {
                    id: 3_000_000 + r as u64,
                    body: format!(
                        "Reply to comment {}: I {}.",
                        3_000_000 + idx,
                        if r.is_multiple_of(2) { "agree" } else { "disagree" }
                    ),
                    parent_type: kind,
                    parent_id: parent,
                    parent_comment: Some(idx),
                    profile: p,
                    reply_profile: profile,
                    created: time,
                    updated: time,
                    reactions: (0..rng.random_range(0..2)).map(|_| rng.random_range(0..profiles.len())).collect(),
                    report_count: 0,
                    replies: Vec::new(),
                });
                comments[idx].replies.push(r);
            }
        }
    }
    (comments, top)
}

fn gen_wallets(rng: &mut ChaCha8Rng, accounts: &[Account]) -> Vec<Wallet> {
    (0..WALLETS)
        .map(|i| Wallet {
            address: accounts.get(i).map_or_else(|| address(rng), |a| a.address.clone()),
            name: format!(
                "{}Trader{}",
                SUBJECTS[(i * 3) % SUBJECTS.len()].trim_start_matches("the ").replace(' ', ""),
                i + 1
            ),
            pseudonym: if i % 4 == 3 {
                String::new()
            } else {
                format!("{}-{}", MONTHS[i % 12], WORDS[i % WORDS.len()])
            },
            bio: String::new(),
        })
        .collect()
}

fn gen_fills(rng: &mut ChaCha8Rng, wallets: &[Wallet], markets: &[Market]) -> Vec<Fill> {
    let mut time = BASE;
    (0..ACTIVITY_TRADES)
        .map(|_| {
            time -= rng.random_range(1..600);
            Fill {
                wallet: rng.random_range(0..wallets.len()),
                market: rng.random_range(0..3_000.min(markets.len())),
                outcome: rng.random_range(0..2),
                buy: rng.random_bool(0.6),
                taker: rng.random_bool(0.7),
                size: rng.random_range(100..5_000_000),
                price: rng.random_range(1..1000),
                timestamp: time,
                tx: hash32(rng),
            }
        })
        .collect()
}

fn gen_closed_positions(rng: &mut ChaCha8Rng, wallets: &[Wallet], markets: &[Market]) -> Vec<ClosedPosition> {
    let mut out = Vec::new();
    for w in 0..wallets.len() {
        let n = rng.random_range(60..=150);
        for _ in 0..n {
            let avg = f64::from(rng.random_range(1..1000u32)) / 1000.0;
            let bought = f64::from(rng.random_range(10..2_000_000u32)) / 100.0;
            let won = rng.random_bool(0.5);
            let cur = if won { 1.0 } else { 0.0 };
            out.push(ClosedPosition {
                wallet: w,
                market: rng.random_range(0..markets.len()),
                outcome: rng.random_range(0..2),
                size: 0.0,
                avg_price: avg,
                total_bought: bought,
                realized_pnl: round6(bought * (cur - avg)),
                cur_price: cur,
                timestamp: BASE - rng.random_range(0..300 * 86_400),
            });
        }
    }
    out
}

pub fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

fn gen_orders(rng: &mut ChaCha8Rng, accounts: &[Account], markets: &[Market]) -> Vec<Order> {
    let counts = [300, 240, 120];
    let open: Vec<usize> =
        (0..markets.len()).filter(|&i| markets[i].accepting_orders && markets[i].tick >= 1_000).collect();
    let mut orders = Vec::new();
    for (a, &n) in counts.iter().enumerate().take(accounts.len()) {
        let mut time = BASE - 5 * 86_400;
        // A few markets hold several orders each, so cancelling a market cancels more than one.
        let clustered: Vec<usize> = (0..5).map(|_| open[rng.random_range(0..open.len())]).collect();
        for k in 0..n {
            let market = if k < 20 { clustered[k % 5] } else { open[rng.random_range(0..open.len())] };
            let m = &markets[market];
            let buy = rng.random_bool(0.5);
            let ticks = 1_000_000 / m.tick;
            let price = rng.random_range(1..ticks) * m.tick;
            time += rng.random_range(10..900);
            let gtd = rng.random_bool(0.2);
            orders.push(Order {
                id: hash32(rng),
                account: a,
                market,
                outcome: rng.random_range(0..2),
                buy,
                price,
                original_size: rng.random_range(1..200) * 5,
                size_matched: 0,
                order_type: if gtd { "GTD" } else { "GTC" },
                expiration: if gtd { BASE + rng.random_range(1..90) * 86_400 } else { 0 },
                created: time,
            });
        }
    }
    for o in orders.iter_mut() {
        if o.id.ends_with('0') {
            o.size_matched = o.original_size / 5;
        }
    }
    orders
}

fn gen_account_trades(rng: &mut ChaCha8Rng, accounts: &[Account], markets: &[Market]) -> Vec<AccountTrade> {
    let mut out = Vec::new();
    for a in 0..accounts.len() {
        let mut time = BASE;
        for _ in 0..250 {
            time -= rng.random_range(60..7_200);
            let market = rng.random_range(0..markets.len());
            let outcome = rng.random_range(0..2);
            let taker = rng.random_bool(0.6);
            let price = rng.random_range(1..100u64) * 10_000;
            let size = rng.random_range(1..500u64) * 1_000_000 / 10;
            let makers = (0..rng.random_range(1..=3))
                .map(|_| (hash32(rng), address(rng), size / 2, price, outcome, rng.random_bool(0.5)))
                .collect();
            out.push(AccountTrade {
                id: uuid(rng),
                account: a,
                taker_order_id: hash32(rng),
                market,
                outcome,
                buy: rng.random_bool(0.5),
                size,
                price,
                fee_bps: markets[market].fee_bps,
                time,
                taker,
                tx: hash32(rng),
                maker_orders: makers,
            });
        }
    }
    out
}

pub fn uuid(rng: &mut ChaCha8Rng) -> String {
    let h = hex(&rng.random::<[u8; 16]>());
    format!("{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_and_dates() {
        assert_eq!(decimal(520_000, 6), "0.52");
        assert_eq!(decimal(5_000_000, 6), "5");
        assert_eq!(decimal(15, 4), "0.0015");
        assert_eq!(parse_micro("0.52"), Some(520_000));
        assert_eq!(parse_micro("192.3"), Some(192_300_000));
        assert_eq!(parse_micro("1"), Some(1_000_000));
        assert_eq!(parse_micro("x"), None);
        assert_eq!(iso(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso(BASE), "2026-01-01T00:00:00Z");
        assert_eq!(iso(1_709_251_199), "2024-02-29T23:59:59Z");
        assert_eq!(compact("{ \"a b\" : [1, \"x\\\" y\"] }"), "{\"a b\":[1,\"x\\\" y\"]}");
    }
}
