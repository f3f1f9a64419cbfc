//! The EIP-712 digest of an `eth_signTypedData_v4` document, computed generically from its `types`, `domain`,
//! `primaryType` and `message`, as a wallet does: the development wallet signs whatever well-formed document it
//! is given, so a client's typed data and its own hash are checked against each other, not against a copy.
//!
//! Types: `address`, `bool`, `string`, `bytes`, `bytes1`…`bytes32`, `uint8`…`uint256`, structs declared in
//! `types`, and arrays of these (`T[]`). Integers are JSON numbers, decimal strings or `0x` hex strings.

use hex::FromHex;
use predictkit::trade::eip712::{keccak, U256};
use serde_json::{Map, Value};

/// The fields of each declared struct: `(name, type)` in declared order.
type Types = Map<String, Value>;

/// The digest a wallet signs: keccak(0x1901 ‖ hashStruct(EIP712Domain, domain) ‖ hashStruct(primaryType, message)).
pub fn digest(doc: &Value) -> Result<[u8; 32], String> {
    let mut types = doc.get("types").and_then(Value::as_object).cloned().ok_or("typed data has no types object")?;
    let primary = doc.get("primaryType").and_then(Value::as_str).ok_or("typed data has no primaryType")?;
    let domain = doc.get("domain").and_then(Value::as_object).ok_or("typed data has no domain object")?;
    let message = doc.get("message").ok_or("typed data has no message")?;
    if !types.contains_key("EIP712Domain") {
        // Wallets infer the domain's type from the fields it has, in the standard order.
        let standard = [
            ("name", "string"),
            ("version", "string"),
            ("chainId", "uint256"),
            ("verifyingContract", "address"),
            ("salt", "bytes32"),
        ];
        let fields: Vec<Value> = standard
            .iter()
            .filter(|(name, _)| domain.contains_key(*name))
            .map(|(name, ty)| serde_json::json!({ "name": name, "type": ty }))
            .collect();
        types.insert("EIP712Domain".into(), Value::Array(fields));
    }
    if primary == "EIP712Domain" {
        return Err("primaryType must not be EIP712Domain".into());
    }
    let mut data = [0u8; 66];
    data[0] = 0x19;
    data[1] = 0x01;
    data[2..34].copy_from_slice(&hash_struct(&types, "EIP712Domain", &Value::Object(domain.clone()), 0)?);
    data[34..].copy_from_slice(&hash_struct(&types, primary, message, 0)?);
    Ok(keccak(&data))
}

fn fields<'a>(types: &'a Types, name: &str) -> Result<Vec<(&'a str, &'a str)>, String> {
    let list = types.get(name).and_then(Value::as_array).ok_or_else(|| format!("type {name} is not declared"))?;
    list.iter()
        .map(|f| match (f.get("name").and_then(Value::as_str), f.get("type").and_then(Value::as_str)) {
            (Some(n), Some(t)) => Ok((n, t)),
            _ => Err(format!("a field of {name} lacks a name or a type")),
        })
        .collect()
}

/// The struct type a field type names, if it names one (`Person`, `Person[]`).
fn struct_name<'a>(types: &Types, ty: &'a str) -> Option<&'a str> {
    let base = ty.split('[').next().unwrap_or(ty);
    types.contains_key(base).then_some(base)
}

/// `Name(type name,…)` followed by the struct types it refers to, sorted by name.
fn encode_type(types: &Types, name: &str) -> Result<String, String> {
    let mut deps = std::collections::BTreeSet::new();
    let mut todo = vec![name.to_owned()];
    while let Some(n) = todo.pop() {
        for (_, ty) in fields(types, &n)? {
            if let Some(s) = struct_name(types, ty) {
                if s != name && deps.insert(s.to_owned()) {
                    todo.push(s.to_owned());
                }
            }
        }
    }
    let mut out = String::new();
    for n in std::iter::once(name.to_owned()).chain(deps) {
        let list: Vec<String> = fields(types, &n)?.iter().map(|(f, t)| format!("{t} {f}")).collect();
        out.push_str(&format!("{n}({})", list.join(",")));
    }
    Ok(out)
}

/// Structs nest at most this deep (a document that refers to itself is refused, not followed forever).
const MAX_DEPTH: usize = 16;

fn hash_struct(types: &Types, name: &str, value: &Value, depth: usize) -> Result<[u8; 32], String> {
    if depth > MAX_DEPTH {
        return Err("typed data nests too deep".into());
    }
    let object = value.as_object().ok_or_else(|| format!("a {name} value must be an object"))?;
    let mut data = keccak(encode_type(types, name)?.as_bytes()).to_vec();
    for (field, ty) in fields(types, name)? {
        let v = object.get(field).ok_or_else(|| format!("{name}.{field} is missing"))?;
        data.extend_from_slice(&encode_value(types, ty, v, depth).map_err(|e| format!("{name}.{field}: {e}"))?);
    }
    Ok(keccak(&data))
}

fn encode_value(types: &Types, ty: &str, value: &Value, depth: usize) -> Result<[u8; 32], String> {
    if let Some(inner) = ty.strip_suffix("[]") {
        let items = value.as_array().ok_or("must be an array")?;
        let mut data = Vec::with_capacity(items.len() * 32);
        for item in items {
            data.extend_from_slice(&encode_value(types, inner, item, depth + 1)?);
        }
        return Ok(keccak(&data));
    }
    if types.contains_key(ty) {
        return hash_struct(types, ty, value, depth + 1);
    }
    let text = || value.as_str().ok_or_else(|| format!("a {ty} must be a string"));
    match ty {
        "string" => Ok(keccak(text()?.as_bytes())),
        "bytes" => Ok(keccak(&hex_bytes(text()?)?)),
        "bool" => match value {
            Value::Bool(b) => Ok(U256::from_u64(u64::from(*b)).0),
            _ => Err("a bool must be true or false".into()),
        },
        "address" => {
            let bytes = hex_bytes(text()?)?;
            if bytes.len() != 20 {
                return Err("an address must be 0x and 40 hex digits".into());
            }
            let mut w = [0u8; 32];
            w[12..].copy_from_slice(&bytes);
            Ok(w)
        }
        _ => {
            if let Some(n) =
                ty.strip_prefix("bytes").and_then(|n| n.parse::<usize>().ok()).filter(|n| (1..=32).contains(n))
            {
                let bytes = hex_bytes(text()?)?;
                if bytes.len() != n {
                    return Err(format!("a {ty} must be 0x and {} hex digits", n * 2));
                }
                let mut w = [0u8; 32];
                w[..n].copy_from_slice(&bytes);
                return Ok(w);
            }
            if let Some(bits) = ty
                .strip_prefix("uint")
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|b| b % 8 == 0 && (8..=256).contains(b))
            {
                let n = uint(value)?;
                let spare = 32 - bits / 8;
                if n.0[..spare].iter().any(|b| *b != 0) {
                    return Err(format!("does not fit a {ty}"));
                }
                return Ok(n.0);
            }
            Err(format!("unsupported type {ty}"))
        }
    }
}

fn hex_bytes(text: &str) -> Result<Vec<u8>, String> {
    let digits = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")).ok_or("hex must start with 0x")?;
    hex::decode(digits).map_err(|_| "not hex".to_owned())
}

/// An unsigned integer: a JSON number (whole, below 2^64), a decimal string or a `0x` hex string.
fn uint(value: &Value) -> Result<U256, String> {
    match value {
        Value::Number(n) => {
            n.as_u64().map(U256::from_u64).ok_or_else(|| "an integer must be whole and not negative".into())
        }
        Value::String(s) if s.starts_with("0x") || s.starts_with("0X") => {
            let digits = &s[2..];
            if digits.is_empty() || digits.len() > 64 {
                return Err("a hex integer takes 1 to 64 digits".into());
            }
            let padded = format!("{digits:0>64}");
            Ok(U256(<[u8; 32]>::from_hex(padded).map_err(|_| "not hex")?))
        }
        Value::String(s) => {
            U256::parse_decimal(s).ok_or_else(|| "an integer must be decimal digits below 2^256".into())
        }
        _ => Err("an integer must be a number or a string".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use predictkit::book::Side;
    use predictkit::trade::eip712::{Address, U256};
    use predictkit::trade::keys::ClobAuth;
    use predictkit::trade::order::{domain, Exchanges, Order, SignatureType, Version};

    #[test]
    fn the_library_typed_data_digests_to_its_own_hashes() {
        let address = Address::parse("a", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266").unwrap();
        let auth = ClobAuth { chain_id: 80002, address, timestamp: "1700000000".into(), nonce: U256::from_u64(7) };
        let doc: Value = serde_json::from_str(&auth.typed_data()).unwrap();
        assert_eq!(digest(&doc).unwrap(), auth.digest());
        for version in [Version::V1, Version::V2] {
            let order = Order {
                version,
                salt: 12345,
                maker: address,
                signer: address,
                token_id: U256::parse_decimal(
                    "71321045679252212594626385532706912750332728571942532289631379312455583992563",
                )
                .unwrap(),
                maker_amount: 5_000_000,
                taker_amount: 10_000_000,
                side: Side::Buy,
                signature_type: SignatureType::Eoa,
                expiration: 0,
                taker: Address::ZERO,
                nonce: U256::default(),
                fee_rate_bps: 0,
                timestamp_ms: 1_700_000_000_000,
                metadata: [0; 32],
                builder: [3; 32],
            };
            let d = domain(version, 80002, Exchanges::known(80002, version).unwrap().neg_risk);
            let doc: Value = serde_json::from_str(&order.typed_data(&d)).unwrap();
            assert_eq!(digest(&doc).unwrap(), order.hash(&d), "{version:?}");
        }
    }

    /// EIP-712's own example (Mail, with nested Person structs).
    #[test]
    fn the_eip712_example_mail() {
        let doc = serde_json::json!({
            "types": {
                "EIP712Domain": [{"name": "name", "type": "string"}, {"name": "version", "type": "string"},
                                 {"name": "chainId", "type": "uint256"}, {"name": "verifyingContract", "type": "address"}],
                "Person": [{"name": "name", "type": "string"}, {"name": "wallet", "type": "address"}],
                "Mail": [{"name": "from", "type": "Person"}, {"name": "to", "type": "Person"}, {"name": "contents", "type": "string"}]
            },
            "primaryType": "Mail",
            "domain": {"name": "Ether Mail", "version": "1", "chainId": 1, "verifyingContract": "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"},
            "message": {
                "from": {"name": "Cow", "wallet": "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"},
                "to": {"name": "Bob", "wallet": "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"},
                "contents": "Hello, Bob!"
            }
        });
        assert_eq!(
            hex::encode(digest(&doc).unwrap()),
            "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2"
        );
        let mut bad = doc.clone();
        bad["message"]["contents"] = Value::from(3);
        assert!(digest(&bad).unwrap_err().contains("Mail.contents"));
        let mut unknown = doc;
        unknown["types"]["Mail"][2]["type"] = Value::from("int256");
        assert!(digest(&unknown).unwrap_err().contains("unsupported type int256"));
    }
}
