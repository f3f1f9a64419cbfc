//! What the call machine (`api::call`) reads a REST answer into for the machine that asked for it: a book,
//! the books of a POST /books, one of an order's reads, a heartbeat's answer. It stands above every layer
//! whose answers it names, so that `api` names none of them, and the binding hands a call's product to its
//! owner inside wasm: no JS round trip, no type erasure.

use crate::api::call::Expect;
use crate::book::OrderBook;

/// A call's answer, read. (Made once per answer and moved to its owner: not worth a box.)
#[allow(clippy::large_enum_variant)]
pub enum Product {
    Book(OrderBook),
    Books(Vec<OrderBook>),
    /// One of an order's reads (`trade::placing`).
    #[cfg(feature = "trade")]
    Order(crate::trade::placing::Answer),
    /// A heartbeat's answer (`trade::heartbeat`).
    #[cfg(feature = "trade")]
    Heartbeat(crate::trade::heartbeat::Answer),
    /// A balance read's answer, for the account doctor (None: not a balance).
    #[cfg(feature = "trade")]
    Holding(Option<crate::trade::doctor::Holding>),
    /// A key route's answer (`trade::keys`): it never leaves Rust.
    #[cfg(feature = "trade")]
    Key(crate::trade::keys::KeyAnswer),
    /// An answer as a value tree (an order's or a trade's, for `trade::tracking`).
    #[cfg(feature = "trade")]
    Value(crate::json::Value),
}

/// GET /book's answer, read into its book.
pub const BOOK: Expect<Product> = Expect::Read(|_, body| OrderBook::from_vec(body).map(Product::Book), 0);

/// POST /books' answer (a JSON array of books), each element read on its own.
pub const BOOKS: Expect<Product> = Expect::Read(|_, body| OrderBook::list_from_bytes(&body).map(Product::Books), 0);

/// The answer to one of an order's reads (`kind`: `trade::placing::Read::kind`).
#[cfg(feature = "trade")]
pub fn order_read(kind: u8) -> Expect<Product> {
    Expect::Read(|kind, body| crate::trade::placing::parse_answer(kind, body).map(Product::Order), kind)
}

/// The read's answer in a product.
#[cfg(feature = "trade")]
pub fn order_answer(product: Product) -> Option<crate::trade::placing::Answer> {
    match product {
        Product::Order(answer) => Some(answer),
        _ => None,
    }
}

/// A heartbeat's answer, read whatever its status (a 400 names the id the service expects).
#[cfg(feature = "trade")]
pub const HEARTBEAT: Expect<Product> = Expect::Any(
    |status, text| crate::trade::heartbeat::read_answer(status, text).map(Product::Heartbeat),
    "the heartbeat's answer names no heartbeat_id",
);

/// The heartbeat's answer in a product.
#[cfg(feature = "trade")]
pub fn heartbeat_answer(product: Product) -> Option<crate::trade::heartbeat::Answer> {
    match product {
        Product::Heartbeat(answer) => Some(answer),
        _ => None,
    }
}

/// A key route's answer, read and its bytes zeroed.
#[cfg(feature = "trade")]
pub const KEY: Expect<Product> = Expect::Read(
    |_, mut body| {
        let key = crate::trade::keys::read_key(&body);
        zeroize::Zeroize::zeroize(&mut body);
        key.map(Product::Key)
    },
    0,
);

/// The key answer in a product.
#[cfg(feature = "trade")]
pub fn key_answer(product: Product) -> Option<crate::trade::keys::KeyAnswer> {
    match product {
        Product::Key(key) => Some(key),
        _ => None,
    }
}

/// An answer read as a value tree (`trade::tracking::Following`).
#[cfg(feature = "trade")]
pub const VALUE: Expect<Product> = Expect::Read(|_, body| crate::json::Value::parse(&body).map(Product::Value), 0);

/// The value tree in a product.
#[cfg(feature = "trade")]
pub fn value(product: Product) -> Option<crate::json::Value> {
    match product {
        Product::Value(value) => Some(value),
        _ => None,
    }
}

/// A balance read's answer, for the account doctor (`trade::doctor::Examination`).
#[cfg(feature = "trade")]
pub const HOLDING: Expect<Product> =
    Expect::Read(|_, body| Ok(Product::Holding(crate::trade::doctor::read_holding(&body))), 0);

/// The holding in a product.
#[cfg(feature = "trade")]
pub fn holding(product: Product) -> Option<crate::trade::doctor::Holding> {
    match product {
        Product::Holding(holding) => holding,
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(expect: Expect<Product>, body: &[u8]) -> Result<Product, crate::Error> {
        let Expect::Read(read, kind) = expect else { panic!("a read of bytes") };
        read(kind, body.to_vec())
    }

    const ONE: &str =
        r#"{"market":"0x1","asset_id":"1","timestamp":"1","hash":"h","bids":[],"asks":[{"price":"0.5","size":"1"}]}"#;

    #[test]
    fn a_book_and_a_batch_of_books_are_read_into_their_books() {
        let Ok(Product::Book(book)) = read(BOOK, ONE.as_bytes()) else { panic!("a book") };
        assert_eq!(book.best_ask().map(|l| l.price), Some(500_000));
        assert!(read(BOOK, b"{\"bids\":").is_err());

        let two = ONE.replace(r#""asset_id":"1""#, r#""asset_id":"2""#);
        let Ok(Product::Books(books)) = read(BOOKS, format!(" [ {ONE} , {two} ] ").as_bytes()) else { panic!("books") };
        assert_eq!(books.iter().map(|b| b.asset_id()).collect::<Vec<_>>(), [Some("1".into()), Some("2".into())]);
        assert!(matches!(read(BOOKS, b"[]"), Ok(Product::Books(b)) if b.is_empty()));
        for bad in ["", "{}", "[1]", &format!("[{ONE}"), &format!("[{ONE}] x")] {
            assert!(read(BOOKS, bad.as_bytes()).is_err(), "{bad}");
        }
    }

    #[test]
    fn an_order_read_and_a_heartbeat_answer_are_read_into_their_owners_types() {
        use crate::trade::heartbeat::Answer;
        use crate::trade::placing::Answer as Read;
        assert!(matches!(read(order_read(0), br#"{"version":2}"#), Ok(Product::Order(Read::Version(_)))));
        assert!(matches!(read(order_read(3), br#"{"base_fee":30}"#), Ok(Product::Order(Read::Fee(30)))));
        assert!(read(order_read(0), br#"{"version":9}"#).is_err());
        let Expect::Any(any, unread) = HEARTBEAT else { panic!("read whatever the status") };
        assert!(
            matches!(any(400, Some(r#"{"heartbeat_id":"e1"}"#)), Some(Product::Heartbeat(Answer::Mismatch(id))) if id == "e1")
        );
        assert!(any(500, Some(r#"{"heartbeat_id":"e1"}"#)).is_none());
        assert!(unread.contains("heartbeat_id"));
    }
}
