//! The trading options of `new Client(options)`: `chainId`, `signatureType`, `funder`, `exchanges` and
//! `signTimeoutMs`, their rules and defaults. The binding reads each option's value; this decides.

use super::eip712::Address;
use super::order::{Exchanges, SignatureType};
use crate::api::options::milliseconds;
use crate::api::{Params, Value};
use crate::error::Error;

/// The chain orders and keys are signed for unless `chainId` says otherwise: Polygon.
pub const DEFAULT_CHAIN_ID: u64 = 137;
/// How long a signer may take by default: a person reads and approves the request in a wallet.
pub const DEFAULT_SIGN_TIMEOUT_MS: f64 = 300_000.0;

/// The client's trading settings.
#[derive(Clone, Debug, PartialEq)]
pub struct TradingSettings {
    pub chain_id: u64,
    pub signature_type: SignatureType,
    /// The proxy or Safe wallet that holds the funds (POLY_PROXY, POLY_GNOSIS_SAFE).
    pub funder: Option<Address>,
    /// Exchanges named in the options, over the published ones.
    pub exchanges: Option<Exchanges>,
    /// How long a signer may take to answer, in milliseconds.
    pub sign_timeout_ms: f64,
}

impl TradingSettings {
    /// Reads the settings through `option`, which gives the value of an option by name.
    pub fn read(option: &mut dyn FnMut(&'static str) -> Result<Value, Error>) -> Result<Self, Error> {
        let chain_id = match option("chainId")? {
            Value::Undefined | Value::Null => DEFAULT_CHAIN_ID,
            Value::Number(n) if n.fract() == 0.0 && (1.0..=4_294_967_295.0).contains(&n) => n as u64,
            _ => return Err(Error::invalid("chainId", "must be a whole number (137 for Polygon, 80002 for Amoy)")),
        };
        let signature_type = SignatureType::parse(&option("signatureType")?)?;
        let funder = match option("funder")? {
            Value::Undefined | Value::Null => None,
            value => Some(address("funder", &value)?),
        };
        if signature_type != SignatureType::Eoa && funder.is_none() {
            return Err(Error::invalid(
                "funder",
                "is required with POLY_PROXY, POLY_GNOSIS_SAFE and POLY_1271: the wallet that holds the funds",
            ));
        }
        let exchanges = match option("exchanges")? {
            Value::Undefined | Value::Null => None,
            Value::Object(fields) => {
                let fields = Params(fields);
                Some(Exchanges {
                    exchange: address("exchanges.exchange", fields.get("exchange"))?,
                    neg_risk: address("exchanges.negRiskExchange", fields.get("negRiskExchange"))?,
                })
            }
            _ => return Err(Error::invalid("exchanges", "must be { exchange, negRiskExchange }")),
        };
        let sign_timeout_ms =
            milliseconds("signTimeoutMs", &option("signTimeoutMs")?)?.unwrap_or(DEFAULT_SIGN_TIMEOUT_MS);
        Ok(TradingSettings { chain_id, signature_type, funder, exchanges, sign_timeout_ms })
    }
}

fn address(param: &'static str, value: &Value) -> Result<Address, Error> {
    match value {
        Value::Str(text) => Address::parse(param, text),
        _ => Err(Error::invalid(param, "must be an address: 0x and 40 hex digits")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WALLET: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    const OTHER: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

    fn read(pairs: &[(&'static str, Value)]) -> Result<TradingSettings, Error> {
        let mut option = |name: &'static str| {
            Ok(pairs.iter().find(|(k, _)| *k == name).map_or(Value::Undefined, |(_, v)| v.clone()))
        };
        TradingSettings::read(&mut option)
    }

    fn s(text: &str) -> Value {
        Value::Str(text.to_owned())
    }

    #[test]
    fn defaults() {
        let settings = read(&[]).unwrap();
        assert_eq!(settings.chain_id, DEFAULT_CHAIN_ID);
        assert_eq!(settings.signature_type, SignatureType::Eoa);
        assert_eq!((settings.funder, settings.exchanges), (None, None));
        assert_eq!(settings.sign_timeout_ms, DEFAULT_SIGN_TIMEOUT_MS);
    }

    #[test]
    fn every_option_and_its_refusals() {
        let exchanges = Value::Object(vec![("exchange".into(), s(WALLET)), ("negRiskExchange".into(), s(OTHER))]);
        let set = read(&[
            ("chainId", Value::Number(80002.0)),
            ("signatureType", s("POLY_GNOSIS_SAFE")),
            ("funder", s(WALLET)),
            ("exchanges", exchanges),
            ("signTimeoutMs", Value::Number(1_000.0)),
        ])
        .unwrap();
        assert_eq!((set.chain_id, set.signature_type), (80002, SignatureType::PolyGnosisSafe));
        assert_eq!(set.funder, Some(Address::parse("funder", WALLET).unwrap()));
        assert_eq!(set.exchanges.map(|e| e.neg_risk), Some(Address::parse("x", OTHER).unwrap()));
        assert_eq!(set.sign_timeout_ms, 1_000.0);

        // (options, the param the refusal names)
        let refused: [(&[(&'static str, Value)], &str); 9] = [
            (&[("chainId", Value::Number(0.0))], "chainId"),
            (&[("chainId", Value::Number(1.5))], "chainId"),
            (&[("chainId", s("137"))], "chainId"),
            (&[("signatureType", s("SAFE"))], "signatureType"),
            (&[("signatureType", Value::Number(1.0))], "funder"),
            (&[("funder", s("0x1234"))], "funder"),
            (&[("exchanges", s(WALLET))], "exchanges"),
            (&[("exchanges", Value::Object(vec![("exchange".into(), s(WALLET))]))], "exchanges.negRiskExchange"),
            (&[("signTimeoutMs", Value::Number(-1.0))], "signTimeoutMs"),
        ];
        for (options, param) in refused {
            assert_eq!(read(options).unwrap_err().param.as_deref(), Some(param), "{options:?}");
        }
    }
}
