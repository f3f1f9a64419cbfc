//! The records of the catalog: what each route's answers are rendered from.

use crate::books::BookKind;

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
    /// A market of the newer position system: its tokens are position ids, traded on the third exchange
    /// (Gamma says `"version": "v2"` and lists them as `positionIds` too).
    pub position_system: bool,
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

/// A made-up order of an account, which the order store (`trading::ledger`) starts with.
pub struct SeedOrder {
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
