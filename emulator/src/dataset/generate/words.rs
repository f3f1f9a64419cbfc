//! The generators' vocabulary: the words titles, questions and names are made of, and slugs.

/// Lowercase ASCII letters and digits, runs of anything else as one `-`.
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

pub const SUBJECTS: [&str; 40] = [
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
pub const THEMES: [(&str, &str); 12] = [
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
pub const MONTHS: [&str; 12] = [
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
pub const WORDS: [&str; 24] = [
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
