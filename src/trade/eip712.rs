//! EIP-712 typed-data hashing (keccak-256 from the `sha3` crate) and the values it encodes: addresses,
//! 256-bit unsigned integers and 32-byte words. The typed data handed to a wallet is written here too,
//! from the same field lists, so what the wallet signs and what the hash covers cannot drift apart.

use sha3::{Digest, Keccak256};

use crate::error::Error;
use crate::json::write_str;

pub fn keccak(data: &[u8]) -> [u8; 32] {
    Keccak256::digest(data).into()
}

/// A 20-byte account or contract address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Address(pub [u8; 20]);

impl Address {
    pub const ZERO: Address = Address([0; 20]);

    /// `0x` and 40 hex digits. Mixed case must be a correct EIP-55 checksum (a typo in a checksummed
    /// address is caught); all-lower and all-upper digits are taken as they are.
    pub fn parse(param: &'static str, text: &str) -> Result<Self, Error> {
        let hex = text
            .strip_prefix("0x")
            .or_else(|| text.strip_prefix("0X"))
            .ok_or_else(|| Error::invalid(param, "must be an address: 0x and 40 hex digits"))?;
        let bytes: [u8; 20] = decode_hex(hex)
            .and_then(|v| v.try_into().ok())
            .ok_or_else(|| Error::invalid(param, "must be an address: 0x and 40 hex digits"))?;
        let address = Address(bytes);
        let has_lower = hex.bytes().any(|b| b.is_ascii_lowercase());
        let has_upper = hex.bytes().any(|b| b.is_ascii_uppercase());
        if has_lower && has_upper && address.checksummed().get(2..) != Some(hex) {
            return Err(Error::invalid(param, "has a wrong EIP-55 checksum (a mistyped address?)"));
        }
        Ok(address)
    }

    /// The EIP-55 mixed-case form.
    pub fn checksummed(&self) -> String {
        let lower = hex(&self.0);
        let hash = keccak(lower.as_bytes());
        let mut out = String::with_capacity(42);
        out.push_str("0x");
        for (i, c) in lower.chars().enumerate() {
            let nibble = hash.get(i / 2).map_or(0, |b| if i % 2 == 0 { b >> 4 } else { b & 0xf });
            out.push(if nibble >= 8 { c.to_ascii_uppercase() } else { c });
        }
        out
    }

    fn word(&self) -> [u8; 32] {
        let mut w = [0u8; 32];
        w[12..].copy_from_slice(&self.0);
        w
    }
}

/// An unsigned 256-bit integer, big-endian: how EIP-712 encodes `uint256` and `uint8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct U256(pub [u8; 32]);

impl U256 {
    pub fn from_u64(n: u64) -> Self {
        let mut w = [0u8; 32];
        w[24..].copy_from_slice(&n.to_be_bytes());
        Self(w)
    }

    /// A decimal string of at most 78 digits that fits in 256 bits (token ids, nonces).
    pub fn parse_decimal(text: &str) -> Option<Self> {
        if text.is_empty() || text.len() > 78 || !text.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let mut w = [0u8; 32];
        for d in text.bytes() {
            // w = w * 10 + d, from the least significant byte up.
            let mut carry = u32::from(d - b'0');
            for byte in w.iter_mut().rev() {
                let v = u32::from(*byte) * 10 + carry;
                *byte = (v & 0xff) as u8;
                carry = v >> 8;
            }
            if carry != 0 {
                return None;
            }
        }
        Some(Self(w))
    }

    /// The decimal text, without leading zeros.
    pub fn to_decimal(&self) -> String {
        let mut w = self.0;
        let mut digits = Vec::new();
        loop {
            let mut rem = 0u32;
            let mut zero = true;
            for byte in w.iter_mut() {
                let v = (rem << 8) | u32::from(*byte);
                *byte = (v / 10) as u8;
                rem = v % 10;
                zero &= *byte == 0;
            }
            digits.push(b'0' + rem as u8);
            if zero {
                break;
            }
        }
        digits.reverse();
        String::from_utf8(digits).unwrap_or_default()
    }
}

/// Lower-case hex without `0x`.
pub fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        for nibble in [b >> 4, b & 0xf] {
            out.push(char::from_digit(u32::from(nibble), 16).unwrap_or('0'));
        }
    }
    out
}

/// `0x` and lower-case hex.
pub fn hex0x(bytes: &[u8]) -> String {
    let mut out = String::from("0x");
    out.push_str(&hex(bytes));
    out
}

/// Hex digits (either case, no prefix, an even count) to bytes.
pub fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    fn nibble(c: u8) -> Option<u8> {
        match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            b'A'..=b'F' => Some(c - b'A' + 10),
            _ => None,
        }
    }
    if hex.len() % 2 != 0 {
        return None;
    }
    hex.as_bytes().chunks_exact(2).map(|p| Some(nibble(*p.first()?)? << 4 | nibble(*p.get(1)?)?)).collect()
}

/// One field of a struct as EIP-712 declares and encodes it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Address(Address),
    /// `uint256` (or `uint8`, which encodes the same), with the text the typed data shows.
    Uint(U256),
    /// A `string`: its keccak is encoded.
    Text(String),
    Bytes32([u8; 32]),
}

impl Value {
    fn word(&self) -> [u8; 32] {
        match self {
            Value::Address(a) => a.word(),
            Value::Uint(n) => n.0,
            Value::Text(s) => keccak(s.as_bytes()),
            Value::Bytes32(b) => *b,
        }
    }

    /// The value as `eth_signTypedData_v4` takes it: integers as decimal strings (exact past 2^53).
    fn write_json(&self, out: &mut String) {
        match self {
            Value::Address(a) => write_str(out, &a.checksummed()),
            Value::Uint(n) => write_str(out, &n.to_decimal()),
            Value::Text(s) => write_str(out, s),
            Value::Bytes32(b) => write_str(out, &hex0x(b)),
        }
    }
}

/// A struct instance: its type's name and its fields `(name, solidity type, value)` in declared order.
pub struct Struct<'a> {
    pub name: &'static str,
    pub fields: &'a [(&'static str, &'static str, Value)],
}

impl Struct<'_> {
    /// `Name(type1 name1,type2 name2,…)`.
    pub fn encode_type(&self) -> String {
        let mut s = String::from(self.name);
        s.push('(');
        for (i, (name, ty, _)) in self.fields.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str(ty);
            s.push(' ');
            s.push_str(name);
        }
        s.push(')');
        s
    }

    /// `hashStruct`: keccak(typeHash ‖ encoded fields).
    pub fn hash(&self) -> [u8; 32] {
        let mut data = Vec::with_capacity(32 * (self.fields.len() + 1));
        data.extend_from_slice(&keccak(self.encode_type().as_bytes()));
        for (_, _, value) in self.fields {
            data.extend_from_slice(&value.word());
        }
        keccak(&data)
    }

    fn write_type_json(&self, out: &mut String) {
        write_str(out, self.name);
        out.push_str(":[");
        for (i, (name, ty, _)) in self.fields.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"name\":");
            write_str(out, name);
            out.push_str(",\"type\":");
            write_str(out, ty);
            out.push('}');
        }
        out.push(']');
    }

    fn write_values_json(&self, out: &mut String, numbers: bool) {
        out.push('{');
        for (i, (name, ty, value)) in self.fields.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_str(out, name);
            out.push(':');
            match value {
                // The domain's chainId is a JSON number, as wallets check it against their chain.
                Value::Uint(n) if numbers && *ty == "uint256" => out.push_str(&n.to_decimal()),
                _ => value.write_json(out),
            }
        }
        out.push('}');
    }
}

/// An EIP-712 domain: `name`, `version`, `chainId` and, for the exchanges, `verifyingContract`.
#[derive(Clone, Debug, PartialEq)]
pub struct Domain {
    pub name: &'static str,
    pub version: &'static str,
    pub chain_id: u64,
    pub verifying_contract: Option<Address>,
}

impl Domain {
    fn fields(&self) -> Vec<(&'static str, &'static str, Value)> {
        let mut fields = vec![
            ("name", "string", Value::Text(self.name.into())),
            ("version", "string", Value::Text(self.version.into())),
            ("chainId", "uint256", Value::Uint(U256::from_u64(self.chain_id))),
        ];
        if let Some(contract) = self.verifying_contract {
            fields.push(("verifyingContract", "address", Value::Address(contract)));
        }
        fields
    }

    pub fn separator(&self) -> [u8; 32] {
        Struct { name: "EIP712Domain", fields: &self.fields() }.hash()
    }
}

/// The digest a wallet signs: keccak(0x1901 ‖ domainSeparator ‖ hashStruct(message)).
pub fn digest(domain: &Domain, message: &Struct<'_>) -> [u8; 32] {
    let mut data = [0u8; 66];
    data[0] = 0x19;
    data[1] = 0x01;
    data[2..34].copy_from_slice(&domain.separator());
    data[34..].copy_from_slice(&message.hash());
    keccak(&data)
}

/// The `eth_signTypedData_v4` document: `{ types, domain, primaryType, message }`, `EIP712Domain` included.
pub fn typed_data_json(domain: &Domain, message: &Struct<'_>) -> String {
    let domain_fields = domain.fields();
    let domain_struct = Struct { name: "EIP712Domain", fields: &domain_fields };
    let mut out = String::with_capacity(1024);
    out.push_str("{\"types\":{");
    domain_struct.write_type_json(&mut out);
    out.push(',');
    message.write_type_json(&mut out);
    out.push_str("},\"domain\":");
    domain_struct.write_values_json(&mut out, true);
    out.push_str(",\"primaryType\":");
    write_str(&mut out, message.name);
    out.push_str(",\"message\":");
    message.write_values_json(&mut out, false);
    out.push('}');
    out
}

/// The ERC-7739 `TypedDataSign` type: the app's struct nested as `contents`, then the signing account's
/// own domain fields.
fn typed_data_sign_type(contents: &Struct<'_>) -> String {
    let mut s = String::from("TypedDataSign(");
    s.push_str(contents.name);
    s.push_str(" contents,string name,string version,uint256 chainId,address verifyingContract,bytes32 salt)");
    s.push_str(&contents.encode_type());
    s
}

/// The digest of an ERC-7739 `TypedDataSign` of `contents` under `domain` (the app's), for the account
/// whose domain fields are `account` (name, version, chainId, verifyingContract, salt, in that order).
pub fn typed_data_sign_digest(
    domain: &Domain,
    contents: &Struct<'_>,
    account: &[(&'static str, &'static str, Value)],
) -> [u8; 32] {
    let mut data = Vec::with_capacity(32 * 7);
    data.extend_from_slice(&keccak(typed_data_sign_type(contents).as_bytes()));
    data.extend_from_slice(&contents.hash());
    for (_, _, value) in account {
        data.extend_from_slice(&value.word());
    }
    let mut message = [0u8; 66];
    message[0] = 0x19;
    message[1] = 0x01;
    message[2..34].copy_from_slice(&domain.separator());
    message[34..].copy_from_slice(&keccak(&data));
    keccak(&message)
}

/// The `eth_signTypedData_v4` document of an ERC-7739 `TypedDataSign`: `{ contents, name, version,
/// chainId, verifyingContract, salt }` with `contents`' type beside it.
pub fn typed_data_sign_json(
    domain: &Domain,
    contents: &Struct<'_>,
    account: &[(&'static str, &'static str, Value)],
) -> String {
    let domain_fields = domain.fields();
    let domain_struct = Struct { name: "EIP712Domain", fields: &domain_fields };
    let mut out = String::with_capacity(2048);
    out.push_str("{\"types\":{");
    domain_struct.write_type_json(&mut out);
    out.push_str(",\"TypedDataSign\":[{\"name\":\"contents\",\"type\":");
    write_str(&mut out, contents.name);
    out.push('}');
    for (name, ty, _) in account {
        out.push_str(",{\"name\":");
        write_str(&mut out, name);
        out.push_str(",\"type\":");
        write_str(&mut out, ty);
        out.push('}');
    }
    out.push_str("],");
    contents.write_type_json(&mut out);
    out.push_str("},\"domain\":");
    domain_struct.write_values_json(&mut out, true);
    out.push_str(",\"primaryType\":\"TypedDataSign\",\"message\":{\"contents\":");
    contents.write_values_json(&mut out, false);
    for (name, _, value) in account {
        out.push(',');
        write_str(&mut out, name);
        out.push(':');
        value.write_json(&mut out);
    }
    out.push_str("}}");
    out
}

/// A 65-byte `r ‖ s ‖ v` signature from a wallet, as `0x` hex, with `v` as 27 or 28 (wallets that
/// answer 0 or 1 are normalised). Anything else is refused: the service cannot use it.
pub fn parse_signature(text: &str) -> Result<String, Error> {
    const RULE: &str = "must be a 65-byte signature: 0x and 130 hex digits";
    let hex = text.strip_prefix("0x").ok_or_else(|| Error::invalid("signature", RULE))?;
    let mut bytes = decode_hex(hex).filter(|b| b.len() == 65).ok_or_else(|| Error::invalid("signature", RULE))?;
    match bytes.last_mut() {
        Some(v @ (0 | 1)) => *v += 27,
        Some(27 | 28) => {}
        _ => return Err(Error::invalid("signature", "has a recovery byte other than 0, 1, 27 or 28")),
    }
    Ok(hex0x(&bytes))
}

/// A signed order's signature: 65 bytes, or for a deposit wallet (`wrapped`) the ERC-7739 form, 65 bytes
/// followed by two 32-byte words, a type string and its 2-byte length, which must agree (at most 1 KB).
pub fn parse_order_signature(text: &str, wrapped: bool) -> Result<String, Error> {
    if !wrapped {
        return parse_signature(text);
    }
    const RULE: &str =
        "must be a deposit wallet's wrapped signature: 0x, 65 bytes, two 32-byte words, a type string and its length";
    let bad = || Error::invalid("signature", RULE);
    let hex = text.strip_prefix("0x").filter(|h| h.len() <= 2048).ok_or_else(bad)?;
    let bytes = decode_hex(hex).ok_or_else(bad)?;
    let n = bytes.len();
    let declared = match bytes.get(n.wrapping_sub(2)..) {
        Some([hi, lo]) => usize::from(*hi) << 8 | usize::from(*lo),
        _ => return Err(bad()),
    };
    if n < 65 + 64 + 2 || n != 65 + 64 + declared + 2 {
        return Err(bad());
    }
    let (first, rest) = (bytes.get(..65).ok_or_else(bad)?, hex.get(130..).ok_or_else(bad)?);
    let inner = parse_signature(&hex0x(first))?;
    Ok(crate::text::concat(&[&inner, rest]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapped_order_signatures_are_read_whole() {
        let tail = |ty: &str| format!("{}{}{}{:04x}", "22".repeat(32), "33".repeat(32), hex(ty.as_bytes()), ty.len());
        let inner = format!("0x{}1b", "11".repeat(64));
        let good = format!("{inner}{}", tail("Order(uint256 salt)"));
        assert_eq!(parse_order_signature(&good, true).unwrap(), good);
        // The inner signature's recovery byte is normalised as a plain one's.
        let zero = format!("0x{}00{}", "11".repeat(64), tail("Order(uint256 salt)"));
        assert_eq!(parse_order_signature(&zero, true).unwrap(), good);
        let short_len = format!("{inner}{}{}{}0005", "22".repeat(32), "33".repeat(32), hex(b"Order(uint256 salt)"));
        for bad in [inner.clone(), short_len, format!("{good}00"), format!("0x{}", "ab".repeat(1100)), "0x".into()] {
            assert_eq!(parse_order_signature(&bad, true).unwrap_err().param.as_deref(), Some("signature"), "{bad}");
        }
        // A plain order's signature is 65 bytes, never wrapped.
        assert!(parse_order_signature(&good, false).is_err());
        assert_eq!(parse_order_signature(&inner, false).unwrap(), inner);
    }

    #[test]
    fn addresses_parse_and_checksum() {
        // EIP-55's own examples.
        for a in [
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
            "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
            "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
        ] {
            let parsed = Address::parse("maker", a).unwrap();
            assert_eq!(parsed.checksummed(), a);
            assert_eq!(Address::parse("maker", &a.to_lowercase()).unwrap(), parsed);
            assert_eq!(Address::parse("maker", &format!("0x{}", a[2..].to_uppercase())).unwrap(), parsed);
        }
        // One case flipped breaks the checksum.
        let e = Address::parse("maker", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD").unwrap_err();
        assert!(e.message.contains("checksum"), "{e}");
        for bad in
            ["", "0x", "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe", "0xzz"]
        {
            assert_eq!(Address::parse("maker", bad).unwrap_err().param.as_deref(), Some("maker"), "{bad:?}");
        }
    }

    #[test]
    fn u256_decimal_round_trips_to_its_bounds() {
        let max = "115792089237316195423570985008687907853269984665640564039457584007913129639935";
        assert_eq!(U256::parse_decimal(max).unwrap().0, [0xff; 32]);
        assert_eq!(U256::parse_decimal(max).unwrap().to_decimal(), max);
        // One past the maximum overflows.
        assert!(U256::parse_decimal("115792089237316195423570985008687907853269984665640564039457584007913129639936")
            .is_none());
        assert_eq!(U256::parse_decimal("0").unwrap(), U256::default());
        assert_eq!(U256::parse_decimal("000123").unwrap(), U256::from_u64(123));
        assert_eq!(U256::from_u64(u64::MAX).to_decimal(), u64::MAX.to_string());
        for bad in ["", "-1", "1.0", "0x10", " 1", &"9".repeat(79)] {
            assert!(U256::parse_decimal(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn keccak_of_the_empty_string() {
        assert_eq!(hex(&keccak(b"")), "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
    }

    #[test]
    fn signatures_are_normalised_or_refused() {
        let body = "11".repeat(64);
        assert_eq!(parse_signature(&format!("0x{body}1b")).unwrap(), format!("0x{body}1b"));
        assert_eq!(parse_signature(&format!("0x{body}00")).unwrap(), format!("0x{body}1b"));
        assert_eq!(parse_signature(&format!("0x{body}01")).unwrap(), format!("0x{body}1c"));
        assert_eq!(parse_signature(&format!("0x{}1B", "AB".repeat(64))).unwrap(), format!("0x{}1b", "ab".repeat(64)));
        for bad in
            [format!("0x{body}02"), format!("0x{body}"), format!("{body}1b"), format!("0x{body}1b00"), String::new()]
        {
            assert_eq!(parse_signature(&bad).unwrap_err().param.as_deref(), Some("signature"), "{bad:?}");
        }
    }
}
