//! Profiles and their comments, with replies.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::address;
use super::words::{MONTHS, SUBJECTS, WORDS};
use crate::dataset::records::{Comment, Event, Market, Profile, Series};
use crate::dataset::{BASE, PROFILES};

pub fn profiles(rng: &mut ChaCha8Rng, markets: &[Market]) -> Vec<Profile> {
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

/// Comments on the first events, series and markets, with replies; and the top-level ones, in id order.
pub fn comments(
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
