//! Tags, creators, markets, events and series.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::words::{slugify, MONTHS, SUBJECTS, THEMES, WORDS};
use super::{address, hash32, token_id};
use crate::books::BookKind;
use crate::dataset::recorded;
use crate::dataset::records::{Creator, Event, Market, Series, Tag};
use crate::dataset::{
    BASE, CLOB_MARKETS, CREATORS, EVENT_ID_BASE, MARKET_ID_BASE, SERIES, SERIES_ID_BASE, SPECIAL_BOOKS, TAGS,
};
use crate::text::iso_micros;

/// The recorded tags, then made-up ones up to [`TAGS`].
pub fn tags(rng: &mut ChaCha8Rng) -> Vec<Tag> {
    let mut tags = recorded::tags();
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

pub fn creators(rng: &mut ChaCha8Rng) -> Vec<Creator> {
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

/// The CLOB markets (each also a catalog market), the first ones recorded, a few with deliberately shaped books.
pub fn markets(rng: &mut ChaCha8Rng) -> Vec<Market> {
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
            position_system: false,
        };
        if let Some(text) = recorded::CLOB_MARKETS.get(i) {
            recorded::apply_clob_market(&mut m, text);
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
    // Every 97th market from the 40th on is of the newer position system (none of the recorded or shaped ones).
    for i in (40..last).step_by(97) {
        let m = &mut markets[i];
        m.position_system = true;
        for outcome in 0..2 {
            m.tokens[outcome] = position_id(&m.condition_id, m.neg_risk, outcome as u8);
        }
    }
    markets
}

/// A position id as the newer system lays it out (ts-sdk `protocol.ts`): the module in the top byte (1 binary,
/// 2 neg-risk), bits of the condition, the 64 reserved bits above bit 40 zero, the outcome in the last byte.
fn position_id(condition_id: &str, neg_risk: bool, outcome: u8) -> String {
    let condition = hex::decode(condition_id.trim_start_matches("0x")).unwrap_or_default();
    let mut bytes = [0u8; 32];
    bytes[0] = if neg_risk { 2 } else { 1 };
    for (k, b) in condition.iter().take(18).enumerate() {
        bytes[1 + k] = *b;
    }
    for (k, b) in condition.iter().skip(18).take(4).enumerate() {
        bytes[27 + k] = *b;
    }
    bytes[31] = outcome;
    alloy_primitives::U256::from_be_bytes(bytes).to_string()
}

/// Events of 1–8 consecutive markets each (setting each market's event), and the series some of them are in.
pub fn events(
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
