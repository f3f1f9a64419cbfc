//! What the fuzz targets share: every query of a parsed book, with extreme arguments.

use predictkit::book::{OrderBook, OrderType, Side, Target};

/// Runs every query and a few changes; the target fails only if something panics.
pub fn exercise(book: &mut OrderBook, amounts: &[u64]) {
    for side in [Side::Buy, Side::Sell] {
        for &amount in amounts.iter().chain(&[0, 1, u64::MAX]) {
            for order_type in [OrderType::Fok, OrderType::Fak] {
                let _ = book.market_price(side, amount, order_type);
            }
            let fill = book.simulate(side, Target::Size(amount));
            let _ = (fill.avg_price(), fill.remaining_f64(), book.slippage(side, &fill));
            let fill = book.simulate(side, Target::Notional(amount));
            let _ = (fill.avg_price(), fill.remaining_f64());
            let _ = book.depth(side, amount);
        }
    }
    let _ = (book.ladder(0), book.ladder(5), book.ladder(usize::MAX), book.midpoint(), book.spread());
    let _ = (book.best_bid(), book.best_ask(), book.hash(), book.hash_input());
    let _ = (book.market(), book.asset_id(), book.timestamp(), book.received_hash());
    let _ = (book.tick_size(), book.min_order_size(), book.last_trade_price(), book.neg_risk());
}
