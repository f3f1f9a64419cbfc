//! A development wallet, as a development chain's node offers one: `POST /wallet` answers EIP-1193 JSON-RPC
//! requests with the well-known development keys, so the demo page and the tests can sign API-key challenges
//! and orders without a browser extension. The keys are public knowledge and exist only in the emulator.

use std::sync::{Arc, OnceLock};

use alloy_primitives::Address;
use axum::body::Bytes;
use axum::extract::State;
use axum::response::Response;
use k256::ecdsa::SigningKey;
use serde_json::{json, Value};

use super::order::parse_address;
use super::{ecdsa, typed_data};
use crate::app::App;
use crate::params::json_text;

/// The development chains' well-known keys (the standard test mnemonic's first accounts).
const KEYS: [&str; 5] = [
    "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
    "59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
    "5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
    "7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
    "47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
];

/// The wallet's accounts: key and address, in order.
pub fn accounts() -> &'static [(SigningKey, Address)] {
    static ACCOUNTS: OnceLock<Vec<(SigningKey, Address)>> = OnceLock::new();
    ACCOUNTS.get_or_init(|| {
        KEYS.iter()
            .filter_map(|k| SigningKey::from_slice(&hex::decode(k).ok()?).ok())
            .map(|key| {
                let address = ecdsa::address_of(key.verifying_key());
                (key, address)
            })
            .collect()
    })
}

/// The wallet's addresses, checksummed.
pub fn addresses() -> Vec<String> {
    accounts().iter().map(|(_, a)| a.to_checksum(None)).collect()
}

/// EIP-1193 error codes.
const UNAUTHORIZED: i64 = 4100;
const UNSUPPORTED: i64 = 4200;
const INVALID_PARAMS: i64 = -32602;
const INVALID_REQUEST: i64 = -32600;
const PARSE_ERROR: i64 = -32700;
/// What a node answers for a call that reverted (EIP-1474's error 3).
const EXECUTION_REVERTED: i64 = 3;

struct RpcError(i64, String);

/// `POST /wallet`: one JSON-RPC request `{jsonrpc, id, method, params}`; answers `{jsonrpc, id, result}` or
/// `{jsonrpc, id, error: {code, message}}`, always with status 200 (as JSON-RPC over HTTP does).
pub(crate) async fn rpc(State(app): State<Arc<App>>, body: Bytes) -> Response {
    let answer = match serde_json::from_slice::<Value>(&body) {
        Err(_) => reply(&Value::Null, Err(RpcError(PARSE_ERROR, "the body is not JSON".into()))),
        Ok(request) => {
            let id = request.get("id").cloned().unwrap_or(Value::Null);
            let result = match request.get("method").and_then(Value::as_str) {
                None => Err(RpcError(INVALID_REQUEST, "a request needs a method".into())),
                Some(method) => call(&app.trading, method, request.get("params").unwrap_or(&Value::Null)),
            };
            reply(&id, result)
        }
    };
    json_text(axum::http::StatusCode::OK, answer.to_string())
}

fn reply(id: &Value, result: Result<Value, RpcError>) -> Value {
    match result {
        Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
        Err(RpcError(code, message)) => {
            json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
        }
    }
}

fn call(trading: &super::Trading, method: &str, params: &Value) -> Result<Value, RpcError> {
    let chain_id = trading.chain_id;
    match method {
        "eth_chainId" => Ok(format!("0x{chain_id:x}").into()),
        "net_version" => Ok(chain_id.to_string().into()),
        "eth_getCode" => get_code(trading, params),
        "eth_call" => eth_call(&trading.wallets, params).map_err(|(code, message)| RpcError(code, message)),
        "eth_accounts" | "eth_requestAccounts" => Ok(addresses().into()),
        "eth_signTypedData_v4" => sign_typed_data(params),
        _ => Err(RpcError(UNSUPPORTED, format!("the development wallet does not support {method}"))),
    }
}

/// The code a deployed wallet holds: the runtime of Solady's ERC-1967 beacon proxy (what a deposit wallet is), for
/// every kind alike; only whether there is code matters to a caller.
const WALLET_CODE: &str = "0x363d3d373d3d363d602036600436635c60da1b60e01b36527fa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50545afa5036515af43d6000803e604d573d6000fd5b3d6000f3";

/// `[address, block]`: a deployed wallet's code, or `0x` (an owner's own address, an undeployed wallet, anyone).
fn get_code(trading: &super::Trading, params: &Value) -> Result<Value, RpcError> {
    let invalid = |m: &str| RpcError(INVALID_PARAMS, m.to_owned());
    let list = params
        .as_array()
        .filter(|l| !l.is_empty() && l.len() <= 2)
        .ok_or_else(|| invalid("params must be [address, block]"))?;
    let address = list[0]
        .as_str()
        .and_then(parse_address)
        .ok_or_else(|| invalid("params[0] must be an address: 0x and 40 hex digits"))?;
    Ok(if trading.wallets.has_code(address) { WALLET_CODE } else { "0x" }.into())
}

alloy_sol_types::sol! {
    /// ERC-1271: what a contract wallet answers for a signature of `hash` (`0x1626ba7e` when it is valid).
    function isValidSignature(bytes32 hash, bytes signature) external view returns (bytes4);
}

/// `[{to, data}, block]`: a call of a deployed deposit wallet's `isValidSignature(bytes32,bytes)`, answered as the
/// wallet would (its ABI-encoded `bytes4`: `0x1626ba7e` for its owner's signature in the form it takes,
/// `0xffffffff` otherwise, as Solady's ERC1271 answers); `0x` from an address without code, as a node answers for
/// one. Any other call of a wallet reverts: the emulator models no other contract function.
pub fn eth_call(wallets: &super::wallets::Wallets, params: &Value) -> Result<Value, (i64, String)> {
    use alloy_sol_types::SolCall;
    let invalid = |m: &str| (INVALID_PARAMS, m.to_owned());
    let call = params
        .as_array()
        .filter(|l| !l.is_empty() && l.len() <= 2)
        .and_then(|l| l[0].as_object())
        .ok_or_else(|| invalid("params must be [{ to, data }, block]"))?;
    let to = call
        .get("to")
        .and_then(Value::as_str)
        .and_then(parse_address)
        .ok_or_else(|| invalid("params[0].to must be an address: 0x and 40 hex digits"))?;
    let data = call
        .get("data")
        .or_else(|| call.get("input"))
        .and_then(Value::as_str)
        .and_then(|d| d.strip_prefix("0x"))
        .and_then(|d| hex::decode(d).ok())
        .ok_or_else(|| invalid("params[0].data must be 0x and hex bytes"))?;
    if !wallets.has_code(to) {
        return Ok("0x".into());
    }
    let reverted = || (EXECUTION_REVERTED, "execution reverted".to_owned());
    let asked = isValidSignatureCall::abi_decode(&data).map_err(|_| reverted())?;
    let taken = wallets.accepts(to, asked.hash, &asked.signature).ok_or_else(reverted)?;
    let word: [u8; 4] = if taken { [0x16, 0x26, 0xba, 0x7e] } else { [0xff; 4] };
    Ok(format!("0x{}", hex::encode(isValidSignatureCall::abi_encode_returns(&word.into()))).into())
}

/// `[address, typedData]`: the typed data as a JSON string (as EIP-1193 specifies) or an object.
fn sign_typed_data(params: &Value) -> Result<Value, RpcError> {
    let invalid = |m: &str| RpcError(INVALID_PARAMS, m.to_owned());
    let list =
        params.as_array().filter(|l| l.len() == 2).ok_or_else(|| invalid("params must be [address, typedData]"))?;
    let address = list[0].as_str().ok_or_else(|| invalid("params[0] must be an address"))?;
    let address =
        parse_address(address).ok_or_else(|| invalid("params[0] must be an address: 0x and 40 hex digits"))?;
    let (key, _) = accounts().iter().find(|(_, a)| *a == address).ok_or_else(|| {
        RpcError(UNAUTHORIZED, format!("{} is not an account of this wallet", address.to_checksum(None)))
    })?;
    let doc = match &list[1] {
        Value::String(text) => {
            serde_json::from_str(text).map_err(|_| invalid("params[1] must be typed data (JSON)"))?
        }
        object @ Value::Object(_) => object.clone(),
        _ => return Err(invalid("params[1] must be typed data (JSON)")),
    };
    let digest = typed_data::digest(&doc).map_err(|e| invalid(&format!("invalid typed data: {e}")))?;
    let signature = ecdsa::sign(key, &digest).ok_or_else(|| RpcError(INVALID_PARAMS, "could not sign".into()))?;
    Ok(format!("0x{}", hex::encode(signature)).into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wallet_holds_the_development_accounts() {
        let list = addresses();
        assert_eq!(list.len(), KEYS.len());
        assert_eq!(list[0], "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
        assert_eq!(list[1], "0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
        assert_eq!(list[2], "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC");
        assert_eq!(list[3], "0x90F79bf6EB2c4f870365E785982E1f101E93b906");
        assert_eq!(list[4], "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65");
    }

    #[test]
    fn calls_answer_or_fail_with_their_codes() {
        let t = super::super::Trading::new(80002, &crate::dataset::Catalog::shared(1));
        assert_eq!(call(&t, "eth_chainId", &Value::Null).ok().unwrap(), "0x13882");
        assert_eq!(call(&t, "eth_foo", &Value::Null).err().unwrap().0, UNSUPPORTED);
        let stranger = json!(["0x0000000000000000000000000000000000000001", "{}"]);
        assert_eq!(call(&t, "eth_signTypedData_v4", &stranger).err().unwrap().0, UNAUTHORIZED);
        let bad = json!([addresses()[0], "not json"]);
        assert_eq!(call(&t, "eth_signTypedData_v4", &bad).err().unwrap().0, INVALID_PARAMS);
        // The fifth account trades through its deposit wallet, deployed; the first is an EOA.
        let deposit = super::super::deposit::wallet_of(accounts()[4].1);
        assert_ne!(call(&t, "eth_getCode", &json!([deposit.to_checksum(None), "latest"])).ok().unwrap(), "0x");
        assert_eq!(call(&t, "eth_getCode", &json!([addresses()[0], "latest"])).ok().unwrap(), "0x");
        assert_eq!(call(&t, "eth_getCode", &json!(["0x12"])).err().unwrap().0, INVALID_PARAMS);
    }
}
